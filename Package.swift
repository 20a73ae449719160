// swift-tools-version: 6.2
// Why each dependency is here: see "Dependencies" in README.md.

import PackageDescription

let package = Package(
    name: "flow",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "flow", targets: ["flow"])
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", exact: "1.0.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
        // Comes with Hummingbird; named for NIOConcurrencyHelpers' locks in FlowSandbox.
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        // Already required by swift-subprocess (FilePath on Linux); named so FlowEngine can import it.
        .package(url: "https://github.com/apple/swift-system", exact: "1.8.1"),
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
        .target(name: "FlowDSL", dependencies: [.product(name: "Yams", package: "Yams")]),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .target(name: "CCurlShim", dependencies: ["CCurl"]),
        .target(name: "FlowHTTP", dependencies: ["FlowTasks", "CCurlShim"]),
        .target(
            name: "FlowEngine",
            dependencies: [
                "FlowDSL", "FlowTasks", "FlowHTTP",
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "FlowSandbox",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "flow",
            dependencies: [
                "FlowDSL", "FlowEngine", "FlowHTTP", "FlowSandbox", "FlowTasks",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Benchmarks (release-built by the bench/ scripts; not part of the product).
        .executableTarget(name: "BenchTasks", dependencies: ["FlowTasks"], path: "bench/tasks"),
        // bench/http's client side; built in release by that script only.
        .executableTarget(name: "BenchHTTP", dependencies: ["FlowHTTP", "FlowTasks"], path: "bench/http-client"),
        .testTarget(name: "FlowTasksTests", dependencies: ["FlowTasks"]),
        .testTarget(name: "FlowDSLTests", dependencies: ["FlowDSL"], resources: [.copy("Fixtures")]),
        .testTarget(name: "FlowHTTPTests", dependencies: ["FlowHTTP", "FlowTasks", "FlowSandbox"]),
        .testTarget(
            name: "FlowEngineTests", dependencies: ["FlowEngine", "FlowDSL", "FlowTasks", "FlowHTTP", "FlowSandbox"]),
        .testTarget(name: "FlowSandboxTests", dependencies: ["FlowSandbox"]),
        .testTarget(name: "EndToEndTests", dependencies: ["flow", "FlowSandbox", "FlowTasks"]),
    ],
    swiftLanguageModes: [.v6]
)

// Every target of ours: Swift 6 language mode (set above) and zero warnings.
for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.treatAllWarnings(as: .error))
    target.swiftSettings = settings
}
