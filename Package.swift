// swift-tools-version: 6.2
// Why each dependency is here: see "Dependencies" in README.md.

import PackageDescription

/// The Swift runtime, Foundation and Dispatch linked into a release executable on Linux: both
/// settings are needed, the compile one so that the modules name the static libraries Foundation
/// needs (`_FoundationICU`, `_FoundationCollections`), the link one to link them (BENCHMARKS.md,
/// Start-up, "round ten").
let staticRuntime = (
    swift: SwiftSetting.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release)),
    linker: LinkerSetting.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))
)

let package = Package(
    name: "flow",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "flow", targets: ["flow"]),
        .library(name: "FlowKit", targets: ["FlowKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", exact: "1.0.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        // Comes with Hummingbird; named for NIOConcurrencyHelpers' locks in FlowSandbox.
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        // Already required by swift-subprocess (FilePath on Linux); named so FlowEngine can import it.
        .package(url: "https://github.com/apple/swift-system", exact: "1.8.1"),
        // The run journal (FlowJournal): SQLite in WAL mode through GRDB; Linux builds it against libsqlite3-dev.
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        // `make docs`: FlowKit's DocC catalog. A command plugin, built only when `make docs` runs it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", exact: "1.5.0"),
    ],
    targets: [
        .target(
            name: "FlowTasks",
            // Futures are generic: without cross-module optimisation every hop in a client module
            // looks up generic metadata at run time (60% of a hop's cost, measured with callgrind), and
            // dynamic exclusivity checks on the few class fields cost another 10%. Debug builds keep them.
            swiftSettings: [
                .unsafeFlags(
                    ["-cross-module-optimization", "-enforce-exclusivity=unchecked"], .when(configuration: .release))
            ]
        ),
        // XPath (`xpath()`, `htmlXPath()`) through libxml2 in a C shim, and the hash functions
        // (`sha256()`, …) through FlowDigest: see "Dependencies" in README.md.
        .target(
            name: "FlowDSL",
            dependencies: [.product(name: "Yams", package: "Yams"), "CXMLShim", "FlowDigest"]),
        .systemLibrary(
            name: "CXML",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .target(name: "CXMLShim", dependencies: ["CXML"]),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .target(name: "CCurlShim", dependencies: ["CCurl"]),
        // CDigest: OpenSSL is set up without its exit-time cleanup before curl sets it up (CurlGlobal).
        .target(name: "FlowHTTP", dependencies: ["FlowTasks", "CCurlShim", "CDigest", "CThreadName"]),
        // Names a thread for the system from inside it (`pthread_setname_np` needs _GNU_SOURCE).
        .target(name: "CThreadName"),
        // sha256, sha1 and md5 from the system's libcrypto (libssl-dev), instead of swift-crypto's
        // own BoringSSL: see "Dependencies" in README.md.
        .target(name: "CDigest", linkerSettings: [.linkedLibrary("crypto")]),
        .target(name: "FlowDigest", dependencies: ["CDigest"]),
        // AWS Signature Version 4 and AWS credentials (environment, ~/.aws files), for S3 and any
        // AWS-style API: see "Dependencies" in README.md.
        .target(name: "FlowAWS", dependencies: ["FlowDigest"]),
        .target(
            name: "FlowEngine",
            dependencies: [
                "FlowDSL", "FlowTasks", "FlowHTTP",
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
                "FlowDigest", "FlowAWS", "CThreadName",
            ]
        ),
        .target(
            name: "FlowSandbox",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                "FlowDigest",
            ]
        ),
        // Knows nothing of FlowDSL/FlowEngine: stores plain strings, ints and dates (see journal-api).
        // GRDBSQLite (GRDB's own SQLite module) for binding the writer's arguments directly.
        // CSQLiteShim: the one SQLite call Swift cannot make (variadic `sqlite3_db_config`).
        .target(name: "CSQLiteShim", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(
            name: "FlowJournal",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
                "CSQLiteShim", "CThreadName",
            ]),
        // flow as a library: the one public API (load, validate, dry-run, run, observe, cancel), and
        // the engine's owner of a whole run (services, processes, journal, reports, outcome).
        .target(
            name: "FlowKit",
            dependencies: ["FlowAWS", "FlowDSL", "FlowDigest", "FlowEngine", "FlowHTTP", "FlowJournal", "FlowTasks"]),
        // `flow export argo`: a workflow as an Argo Workflows manifest, built from the loaded model.
        .target(name: "FlowArgo", dependencies: ["FlowDSL", "FlowDigest", "FlowKit", "FlowTasks"]),
        // The `flow` executable allocates with mimalloc instead of glibc's malloc (Debian's
        // libmimalloc-dev): glibc gives each Dispatch worker thread an arena of its own and grows it
        // one `mprotect` call a page, which cost `flow validate` and `flow run` of 10,000 steps a
        // tenth of their time; one glibc arena for all threads (M_ARENA_MAX) removed that but made
        // concurrent requests wait on its lock. mimalloc's per-thread heaps grow by whole segments.
        // Linked here, in the executable only (FlowKit apps keep their own allocator); measured in
        // BENCHMARKS.md, "Issue 32, round eight" and "round nine" (kept once the upload's file
        // reads stopped freeing DispatchIO's pieces on other threads); why in README.md's "Dependencies".
        .target(name: "CAllocator", linkerSettings: [.linkedLibrary("mimalloc", .when(platforms: [.linux]))]),
        .executableTarget(
            name: "flow",
            dependencies: [
                "FlowKit", "FlowArgo", "FlowSandbox",
                .target(name: "CAllocator", condition: .when(platforms: [.linux])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // A member (a property, a method) is found only in a module this file imports: the
            // command line cannot use the engine's members on a value FlowKit hands it.
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility"), staticRuntime.swift],
            // Release builds carry the Swift runtime, Foundation and Dispatch inside the binary:
            // loading and relocating their shared libraries was a third of `flow --version` (19.7 →
            // 12.5 ms) and about 19 ms of a 10,000-step `flow run` (BENCHMARKS.md, Start-up,
            // "round ten"). Debug and thread-sanitizer builds (the tests) keep the shared ones.
            linkerSettings: [staticRuntime.linker]
        ),
        // An app that embeds flow through FlowKit alone; EndToEndTests run it against the sandbox.
        .executableTarget(name: "FlowKitExample", dependencies: ["FlowKit"], path: "Examples/FlowKitExample"),
        // Benchmarks (release-built by the bench/ scripts; not part of the product).
        .executableTarget(name: "BenchTasks", dependencies: ["FlowTasks"], path: "bench/tasks"),
        // bench/http's client side; built in release by that script only.
        // bench/validate's in-process view: `WorkflowLoader.load` beside libyaml's own event parse.
        .executableTarget(
            name: "BenchValidate", dependencies: ["FlowDSL", .product(name: "Yams", package: "Yams")],
            path: "bench/validate-core"),
        // bench/flowkit's in-process run observed through FlowKit's events.
        // Linked as `flow` is (the Swift runtime inside in release builds), so that bench/flowkit
        // compares FlowKit's events with the command line, not two ways of loading the runtime.
        .executableTarget(
            name: "BenchFlowKit", dependencies: ["FlowKit"], path: "bench/flowkit-driver",
            swiftSettings: [staticRuntime.swift], linkerSettings: [staticRuntime.linker]
        ),
        .executableTarget(name: "BenchHTTP", dependencies: ["FlowHTTP", "FlowTasks"], path: "bench/http-client"),
        // bench/journal's workload; FlowJournalTests also run it as a second process on one journal.
        .executableTarget(name: "BenchJournal", dependencies: ["FlowJournal"], path: "bench/journal-writer"),
        .testTarget(name: "FlowTasksTests", dependencies: ["FlowTasks"]),
        .testTarget(name: "FlowDSLTests", dependencies: ["FlowDSL"], resources: [.copy("Fixtures")]),
        .testTarget(name: "FlowHTTPTests", dependencies: ["FlowHTTP", "FlowTasks", "FlowSandbox"]),
        .testTarget(
            name: "FlowEngineTests",
            dependencies: ["FlowEngine", "FlowDSL", "FlowTasks", "FlowHTTP", "FlowSandbox", "FlowDigest"]),
        .testTarget(name: "FlowSandboxTests", dependencies: ["FlowSandbox"]),
        .testTarget(
            name: "FlowAWSTests", dependencies: ["FlowAWS", "FlowDigest"], resources: [.copy("aws4_testsuite")]),
        .testTarget(
            name: "FlowJournalTests",
            dependencies: ["FlowJournal", "BenchJournal", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "FlowKitTests", dependencies: ["FlowKit", "FlowSandbox"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "flow", "FlowKitExample", "FlowJournal", "FlowSandbox", "FlowTasks",
                // To put into a journal what flow never writes (JournalUnknownStateTests).
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)

// Helpers every test target shares (failures, temporary folders, polling, processes): one copy,
// in Tests/FlowTestSupport, rather than one per target.
package.targets.append(.target(name: "FlowTestSupport", path: "Tests/FlowTestSupport"))
for target in package.targets where target.type == .test {
    target.dependencies.append("FlowTestSupport")
}

// Every target of ours: Swift 6 language mode (set above) and zero warnings.
for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.treatAllWarnings(as: .error))
    target.swiftSettings = settings
}
