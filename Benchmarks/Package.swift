// swift-tools-version:6.1

import PackageDescription

// A package of its own so that the benchmark dependency stays out of the library's graph.
let package = Package(
    name: "lifetrace-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: "https://github.com/ordo-one/package-benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(name: "lifetrace", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "FormatBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "LifetraceFormat", package: "lifetrace"),
                .product(name: "LifetraceRunner", package: "lifetrace"),
                .product(name: "LifetraceZstd", package: "lifetrace"),
                .product(name: "LifetraceSynthesis", package: "lifetrace"),
            ],
            path: "Benchmarks/FormatBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "RecorderBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "LifetraceRecorder", package: "lifetrace"),
                .product(name: "LifetraceFormat", package: "lifetrace"),
                .product(name: "LifetraceZstd", package: "lifetrace"),
            ],
            path: "Benchmarks/RecorderBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "AnalyzerBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "LifetraceAnalysis", package: "lifetrace"),
                .product(name: "LifetraceRules", package: "lifetrace"),
                .product(name: "LifetraceFormat", package: "lifetrace"),
                .product(name: "LifetraceRunner", package: "lifetrace"),
                .product(name: "LifetraceZstd", package: "lifetrace"),
                .product(name: "LifetraceSynthesis", package: "lifetrace"),
            ],
            path: "Benchmarks/AnalyzerBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ]
)
