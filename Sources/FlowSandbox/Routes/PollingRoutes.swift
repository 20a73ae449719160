internal import Hummingbird
internal import NIOConcurrencyHelpers

/// The jobs `POST /jobs` created: how many polls each stays pending, and the polls so far.
final class JobStore: Sendable {
    struct Job {
        let pendingPolls: Int
        var polls = 0
    }

    private let jobs = NIOLockedValueBox<(next: Int, jobs: [Int: Job])>((1, [:]))

    /// A new job pending for `pendingPolls` polls; returns its id.
    func create(pendingPolls: Int) -> Int {
        jobs.withLockedValue { store in
            let id = store.next
            store.next += 1
            store.jobs[id] = Job(pendingPolls: pendingPolls)
            return id
        }
    }

    /// Counts one more poll of job `id`; nil for an unknown job.
    func poll(_ id: Int) -> Job? {
        jobs.withLockedValue { store in
            guard var job = store.jobs[id] else { return nil }
            job.polls += 1
            store.jobs[id] = job
            return job
        }
    }
}

/// Endpoints to poll and to page through: `POST /jobs?polls=N` creates a job that `GET /jobs/{id}`
/// reports `pending` for N polls, then `done`; `GET /pages?page=P&per-page=K&count=N` serves N
/// items K at a time, each page with a `next` link until the last (`next: null`).
enum PollingRoutes {
    private struct JobState: Encodable {
        var id: Int
        var state: String
        var polls: Int
        var result: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(state, forKey: .state)
            try container.encode(polls, forKey: .polls)
            try container.encode(result, forKey: .result)
        }

        private enum CodingKeys: String, CodingKey { case id, state, polls, result }
    }

    private struct Page: Encodable {
        var page: Int
        var items: [Int]
        var next: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(page, forKey: .page)
            try container.encode(items, forKey: .items)
            // Written as null on the last page, as real APIs do.
            try container.encode(next, forKey: .next)
        }

        private enum CodingKeys: String, CodingKey { case page, items, next }
    }

    static func register(on router: Router<SandboxContext>, state: SandboxState) {
        let jobs = JobStore()
        router.post("jobs") { request, context in
            _ = try await RequestBodyReader.drain(request, context: context, events: state.events)
            let polls = request.uri.queryParameters.get("polls", as: Int.self) ?? 2
            guard (0...10_000).contains(polls) else {
                return JSONResponse.error("polls must be 0 to 10000", status: .badRequest)
            }
            let id = jobs.create(pendingPolls: polls)
            return JSONResponse.make(JobState(id: id, state: "pending", polls: 0), status: .created)
        }
        router.get("jobs/:id") { _, context in
            guard let id = context.parameters.get("id", as: Int.self), let job = jobs.poll(id) else {
                return JSONResponse.error("no such job", status: .notFound)
            }
            let done = job.polls > job.pendingPolls
            return JSONResponse.make(
                JobState(id: id, state: done ? "done" : "pending", polls: job.polls, result: done ? "ok-\(id)" : nil))
        }
        router.get("pages") { request, _ in
            let query = request.uri.queryParameters
            let page = query.get("page", as: Int.self) ?? 1
            let perPage = query.get("per-page", as: Int.self) ?? 3
            let count = query.get("count", as: Int.self) ?? 10
            guard page >= 1, (1...1000).contains(perPage), (0...100_000).contains(count) else {
                return JSONResponse.error(
                    "page must be 1 or more, per-page 1 to 1000, count 0 to 100000", status: .badRequest)
            }
            let first = (page - 1) * perPage + 1
            let items = first <= count ? Array(first...min(count, first + perPage - 1)) : []
            let next = first + perPage <= count ? "/pages?page=\(page + 1)&per-page=\(perPage)&count=\(count)" : nil
            return JSONResponse.make(Page(page: page, items: items, next: next))
        }
    }
}
