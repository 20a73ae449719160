internal import Hummingbird

/// Every endpoint of the sandbox, registered in one place.
package enum SandboxRoutes {
    static func register(on router: Router<SandboxContext>, state: SandboxState) {
        BasicRoutes.register(on: router, state: state)
        AuthRoutes.register(on: router, state: state)
        CookieRoutes.register(on: router, state: state)
        ResponseHeaderRoutes.register(on: router, state: state)
        FlakyRoutes.register(on: router, state: state)
        ReflectRoute.register(on: router, state: state)
        RequestRoute.register(on: router, state: state)
        MultipartRoutes.register(on: router, state: state)
        ContentRangeRoutes.register(on: router, state: state)
        TusRoutes.register(on: router, state: state)
        UploadInfoRoutes.register(on: router, state: state)
        DownloadRoutes.register(on: router, state: state)
        ItemRoutes.register(on: router, state: state)
        PollingRoutes.register(on: router, state: state)
        DocumentRoutes.register(on: router, state: state)
    }

    /// Every endpoint as `METHOD /path`, captures in braces (`GET /items/{n}`), sorted: what
    /// README.md's endpoint table must list (HEAD answered for every GET is not listed apart).
    package static func list() -> [String] {
        let router = Router(context: SandboxContext.self)
        register(on: router, state: SandboxState(storageDirectory: "/nonexistent"))
        return router.routes.map { "\($0.method) \($0.path)" }.sorted()
    }
}
