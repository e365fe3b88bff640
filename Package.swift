// swift-tools-version:6.1

import PackageDescription

let package = Package(
    name: "lifetrace",
    // The recorder targets Apple platforms (where it writes raw-block traces: no libzstd there);
    // only Linux is built and tested here (docs/RECORDING.md, "Not built here").
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .executable(name: "lifetrace", targets: ["LifetraceCLI"]),
        .library(name: "LifetraceFormat", targets: ["LifetraceFormat"]),
        .library(name: "LifecycleModel", targets: ["LifecycleModel"]),
        .library(name: "LifetraceAnalysis", targets: ["LifetraceAnalysis"]),
        .library(name: "LifetraceReports", targets: ["LifetraceReports"]),
        .library(name: "LifetraceExport", targets: ["LifetraceExport"]),
        .library(name: "LifetraceRecorder", targets: ["LifetraceRecorder"]),
        .library(name: "LifecycleHost", targets: ["LifecycleHost"]),
        .library(name: "LifetraceSupervisor", targets: ["LifetraceSupervisor"]),
        .executable(name: "SampleApp", targets: ["SampleApp"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]
        ),
        .target(name: "CCRC32C"),
        .target(name: "CRecorderSignals"),
        .target(
            name: "LifetraceFormat",
            dependencies: ["CZstd", "CCRC32C", .product(name: "HeapModule", package: "swift-collections")]
        ),
        .target(
            name: "LifecycleModel",
            dependencies: ["LifetraceFormat"]
        ),
        .target(
            name: "LifetraceAnalysis",
            dependencies: ["LifetraceFormat", "LifecycleModel"]
        ),
        .target(
            name: "LifetraceReports",
            dependencies: ["LifetraceFormat", "LifecycleModel", "LifetraceAnalysis"]
        ),
        .target(
            name: "LifetraceExport",
            dependencies: ["LifetraceFormat", "LifetraceAnalysis", "LifecycleModel"]
        ),
        .target(
            name: "LifetraceRecorder",
            dependencies: [
                "LifetraceFormat",
                "CRecorderSignals",
                .product(name: "Atomics", package: "swift-atomics"),
            ]
        ),
        .target(
            name: "LifecycleHost",
            dependencies: ["LifetraceRecorder", "LifetraceFormat"]
        ),
        .target(
            name: "LifetraceSupervisor",
            dependencies: [
                "LifetraceRecorder",
                "LifecycleHost",
                "LifetraceFormat",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .executableTarget(
            name: "SampleApp",
            dependencies: ["LifecycleHost", "LifetraceRecorder"],
            path: "Samples/SampleApp"
        ),
        .executableTarget(
            name: "RecorderProbe",
            dependencies: ["LifetraceRecorder", "LifetraceFormat"],
            path: "Tests/RecorderProbe"
        ),
        .executableTarget(
            name: "LifetraceCLI",
            dependencies: [
                "LifetraceFormat",
                "LifetraceAnalysis",
                "LifetraceReports",
                "LifetraceExport",
                "LifetraceRecorder",
                "LifetraceSupervisor",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "LifetraceFormatTests",
            dependencies: ["LifetraceFormat"]
        ),
        // Runs the built `lifetrace` for the command tests of several modules.
        .target(
            name: "LifetraceTestSupport",
            dependencies: ["LifetraceAnalysis", "LifetraceFormat"],
            path: "Tests/LifetraceTestSupport"
        ),
        .testTarget(
            name: "LifetraceCLITests",
            dependencies: ["LifetraceFormat", "LifetraceAnalysis", "LifetraceCLI", "LifetraceTestSupport"]
        ),
        .testTarget(
            name: "LifecycleModelTests",
            dependencies: ["LifecycleModel", "LifetraceFormat"]
        ),
        .testTarget(
            name: "LifetraceAnalysisTests",
            dependencies: ["LifetraceAnalysis", "LifecycleModel", "LifetraceFormat", "LifetraceReports", "LifetraceCLI", "LifetraceTestSupport"]
        ),
        .testTarget(
            name: "LifetraceReportsTests",
            dependencies: ["LifetraceReports", "LifetraceAnalysis", "LifecycleModel", "LifetraceFormat", "LifetraceCLI", "LifetraceTestSupport"]
        ),
        .testTarget(
            name: "LifetraceExportTests",
            dependencies: ["LifetraceExport", "LifetraceAnalysis", "LifetraceFormat", "LifetraceCLI", "LifetraceTestSupport"]
        ),
        .testTarget(
            name: "LifetraceRecorderTests",
            dependencies: ["LifetraceRecorder", "LifetraceFormat", "RecorderProbe"]
        ),
        .testTarget(
            name: "LifecycleHostTests",
            dependencies: ["LifecycleHost", "LifetraceRecorder", "LifetraceFormat"]
        ),
        .testTarget(
            name: "LifetraceSupervisorTests",
            dependencies: [
                "LifetraceSupervisor", "LifetraceRecorder", "LifetraceFormat", "LifetraceAnalysis", "LifecycleModel", "SampleApp",
                "LifetraceCLI", "RecorderProbe", "LifetraceTestSupport",
            ]
        ),
    ]
)

// Strict settings for every target of the package.
for target in package.targets where [.executable, .test, .regular].contains(target.type) {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    target.swiftSettings = settings
}
