// swift-tools-version:6.1

import PackageDescription

// Benchmarks live in their own package so that the benchmark dependency stays out of the
// library's graph. Run with `swift package --package-path Benchmarks benchmark` (`make bench`).
let package = Package(
    name: "benchmarks",
    dependencies: [
        .package(name: "lifetrace", path: "../"),
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "AnalyzerBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "LifetraceAnalysis", package: "lifetrace"),
                .product(name: "LifetraceFormat", package: "lifetrace"),
            ],
            path: "Benchmarks/AnalyzerBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "package-benchmark")
            ]
        ),
    ]
)
