import Dispatch

/// The winner of `any` or one of the successes of `atLeast`: which input, and its value.
package struct Success<Value: Sendable>: Sendable {
    /// The position of the future in the combinator's input.
    package let index: Int
    /// The value it succeeded with.
    package let value: Value
}

extension Future {
    /// Succeeds with every value, in input order, when all succeed (the seed's
    /// `statusOfFirstRequestToFail`). The first failure fails it with that error and cancels the
    /// others. Zero inputs succeed at once with `[]`. Cancelling the result cancels every input.
    package static func all(_ futures: [Future<Value>], on queue: DispatchQueue) -> Future<[Value]> {
        let promise = Promise<[Value]>(on: queue)
        guard !futures.isEmpty else {
            promise.succeed([])
            return promise.future
        }
        let cancelAll: @Sendable () -> Void = { for future in futures { future.cancel() } }
        promise.onCancel(cancelAll)
        let collected = LockedBox((values: [Value?](repeating: nil, count: futures.count), left: futures.count))
        for (index, future) in futures.enumerated() {
            future.whenComplete(on: queue) { result in
                switch result {
                case .success(let value):
                    let finished: [Value]? = collected.withLock { state in
                        state.values[index] = value
                        state.left -= 1
                        return state.left == 0 ? state.values.map { $0! } : nil
                    }
                    if let finished { promise.succeed(finished) }
                case .failure(let error):
                    if promise.fail(error) { cancelAll() }
                }
            }
        }
        return promise.future
    }

    /// Waits for every input whatever happens and reports each result, in input order.
    /// Never fails unless cancelled; cancelling it cancels every input.
    package static func allSettled(
        _ futures: [Future<Value>], on queue: DispatchQueue
    ) -> Future<[Result<Value, any Error>]> {
        let settled = futures.map { future in
            let promise = Promise<Result<Value, any Error>>(on: queue)
            promise.onCancel { future.cancel() }
            future.whenComplete(on: queue) { promise.succeed($0) }
            return promise.future
        }
        return Future<Result<Value, any Error>>.all(settled, on: queue)
    }

    /// Succeeds with the first input to **succeed** (the seed's `statusOfFirstRequestToSucceed`)
    /// and cancels the others. Fails only when every input failed, with a `QuorumError` holding
    /// every error. Zero inputs fail at once (no input can succeed).
    package static func any(_ futures: [Future<Value>], on queue: DispatchQueue) -> Future<Success<Value>> {
        atLeast(1, of: futures, on: queue).map { successes in successes[0] }
    }

    /// Succeeds with the first `count` successes, in the order they happened, and cancels the rest.
    /// Fails with a `QuorumError` as soon as `count` successes became impossible, cancelling the rest.
    /// `count <= 0` succeeds at once with `[]` (and cancels every input, none being needed);
    /// `count` above the number of inputs fails at once.
    package static func atLeast(
        _ count: Int, of futures: [Future<Value>], on queue: DispatchQueue
    ) -> Future<[Success<Value>]> {
        let promise = Promise<[Success<Value>]>(on: queue)
        let cancelAll: @Sendable () -> Void = { for future in futures { future.cancel() } }
        if count <= 0 {
            promise.succeed([])
            cancelAll()
            return promise.future
        }
        if count > futures.count {
            promise.fail(QuorumError(required: count, succeeded: 0, errors: []))
            cancelAll()
            return promise.future
        }
        promise.onCancel(cancelAll)
        let allowedFailures = futures.count - count
        let tally = LockedBox((successes: [Success<Value>](), errors: [IndexedError]()))
        for (index, future) in futures.enumerated() {
            future.whenComplete(on: queue) { result in
                let outcome: Result<[Success<Value>], QuorumError>? = tally.withLock { state in
                    switch result {
                    case .success(let value):
                        state.successes.append(Success(index: index, value: value))
                        return state.successes.count == count ? .success(state.successes) : nil
                    case .failure(let error):
                        state.errors.append(IndexedError(index: index, error: error))
                        guard state.errors.count == allowedFailures + 1 else { return nil }
                        let errors = state.errors.sorted { $0.index < $1.index }
                        return .failure(
                            QuorumError(required: count, succeeded: state.successes.count, errors: errors))
                    }
                }
                guard let outcome else { return }
                let completed: Bool
                switch outcome {
                case .success(let successes): completed = promise.succeed(successes)
                case .failure(let error): completed = promise.fail(error)
                }
                if completed { cancelAll() }
            }
        }
        return promise.future
    }
}
