import Dispatch

extension Future {
    /// A future of `transform(value)` once this one succeeds (SPTask's `then`).
    ///
    /// Errors pass through untouched to the end of the chain. A throwing `transform` fails the
    /// new future. Cancelling the new future cancels this one.
    package func map<NewValue: Sendable>(
        on queue: DispatchQueue? = nil,
        _ transform: @escaping @Sendable (Value) throws -> NewValue
    ) -> Future<NewValue> {
        let promise = Promise<NewValue>(on: queue ?? self.queue)
        promise.onCancel { self.cancel() }
        whenComplete(on: queue) { result in
            switch result {
            case .success(let value): promise.complete(Result { try transform(value) })
            case .failure(let error): promise.fail(error)
            }
        }
        return promise.future
    }

    /// A future of the future `next(value)` returns once this one succeeds (SPTask's `chain`).
    ///
    /// Cancelling the result cancels whichever of the two is running.
    package func flatMap<NewValue: Sendable>(
        on queue: DispatchQueue? = nil,
        _ next: @escaping @Sendable (Value) throws -> Future<NewValue>
    ) -> Future<NewValue> {
        let promise = Promise<NewValue>(on: queue ?? self.queue)
        promise.onCancel { self.cancel() }
        whenComplete(on: queue) { result in
            switch result {
            case .success(let value):
                do {
                    promise.complete(with: try next(value))
                } catch {
                    promise.fail(error)
                }
            case .failure(let error):
                promise.fail(error)
            }
        }
        return promise.future
    }

    /// A future that turns a failure into a value with `handler`; successes pass through.
    ///
    /// Cancellation is not recovered: a cancelled future stays cancelled so that cancelling a
    /// chain really stops it.
    package func recover(
        on queue: DispatchQueue? = nil,
        _ handler: @escaping @Sendable (any Error) throws -> Value
    ) -> Future<Value> {
        flatMapError(on: queue) { error in
            Future.succeeded(try handler(error), on: queue ?? self.queue)
        }
    }

    /// A future that replaces a failure with the future `handler` returns; successes pass through.
    ///
    /// As with `recover`, cancellation is passed on rather than handled.
    package func flatMapError(
        on queue: DispatchQueue? = nil,
        _ handler: @escaping @Sendable (any Error) throws -> Future<Value>
    ) -> Future<Value> {
        let promise = Promise<Value>(on: queue ?? self.queue)
        promise.onCancel { self.cancel() }
        whenComplete(on: queue) { result in
            switch result {
            case .success(let value):
                promise.succeed(value)
            case .failure(let error as FutureError) where error == .cancelled:
                promise.fail(error)
            case .failure(let error):
                do {
                    promise.complete(with: try handler(error))
                } catch {
                    promise.fail(error)
                }
            }
        }
        return promise.future
    }
}
