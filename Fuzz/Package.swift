// swift-tools-version:6.1

import PackageDescription

// libFuzzer targets, in their own package so that the main package's build and tests never link
// them. Build with `swift build --sanitize=fuzzer` (see docs/FUZZING.md).
let package = Package(
    name: "lifetrace-fuzz",
    dependencies: [
        .package(name: "lifetrace", path: ".."),
    ],
    targets: [
        // The whole pipeline after the readers, shared by the report and export fuzzers.
        .target(
            name: "PipelineHarness",
            dependencies: [
                .product(name: "LifetraceFormat", package: "lifetrace"),
                .product(name: "LifetraceAnalysis", package: "lifetrace"),
                .product(name: "LifetraceReports", package: "lifetrace"),
                .product(name: "LifetraceExport", package: "lifetrace"),
                .product(name: "LifetraceRunner", package: "lifetrace"),
            ]
        ),
        .executableTarget(name: "ReportFuzzer", dependencies: ["PipelineHarness"]),
        .executableTarget(name: "ExportFuzzer", dependencies: ["PipelineHarness"]),
        // Regions and recovery: a region drained as `record` drains it, then `recover`, then the
        // pipeline on the sealed trace.
        .executableTarget(
            name: "RegionFuzzer",
            dependencies: [
                "PipelineHarness",
                .product(name: "LifetraceFormat", package: "lifetrace"),
                .product(name: "LifetraceRecorder", package: "lifetrace"),
                .product(name: "LifetraceRunner", package: "lifetrace"),
                .product(name: "LifetraceZstd", package: "lifetrace"),
            ]
        ),
        .executableTarget(
            name: "RuleFileFuzzer",
            dependencies: [
                .product(name: "LifetraceFormat", package: "lifetrace"),
                .product(name: "LifetraceAnalysis", package: "lifetrace"),
                .product(name: "LifetraceReports", package: "lifetrace"),
                .product(name: "LifetraceRules", package: "lifetrace"),
                .product(name: "LifetraceRunner", package: "lifetrace"),
            ]
        ),
        .executableTarget(
            name: "BinaryFuzzer",
            dependencies: [
                .product(name: "LifetraceFormat", package: "lifetrace"),
                .product(name: "LifetraceRunner", package: "lifetrace"),
                .product(name: "LifetraceZstd", package: "lifetrace"),
            ]
        ),
        .executableTarget(
            name: "JSONLFuzzer",
            dependencies: [
                .product(name: "LifetraceFormat", package: "lifetrace"),
                .product(name: "LifetraceOutput", package: "lifetrace"),
            ]
        ),
    ]
)
