// swift-tools-version:6.1

import PackageDescription

let package = Package(
    name: "lifetrace",
    // The recorder targets Apple platforms (where it writes raw-block traces: it links no
    // libzstd); only Linux is built and tested here (docs/RECORDING.md, "Not built here").
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .executable(name: "lifetrace", targets: ["LifetraceCLI"]),
        .library(name: "LifetraceFormat", targets: ["LifetraceFormat"]),
        .library(name: "LifetraceOutput", targets: ["LifetraceOutput"]),
        .library(name: "LifetraceZstd", targets: ["LifetraceZstd"]),
        .library(name: "LifetraceInstruments", targets: ["LifetraceInstruments"]),
        .library(name: "LifecycleModel", targets: ["LifecycleModel"]),
        .library(name: "LifetraceSynthesis", targets: ["LifetraceSynthesis"]),
        .library(name: "LifetraceAnalysis", targets: ["LifetraceAnalysis"]),
        .library(name: "LifetraceRunner", targets: ["LifetraceRunner"]),
        .library(name: "LifetraceReports", targets: ["LifetraceReports"]),
        .library(name: "LifetraceRules", targets: ["LifetraceRules"]),
        .library(name: "LifetraceExport", targets: ["LifetraceExport"]),
        .library(name: "LifetraceHistory", targets: ["LifetraceHistory"]),
        .library(name: "LifetraceRecorder", targets: ["LifetraceRecorder"]),
        // What an iOS app adds: `import Lifetrace`, `Lifetrace.start()` (docs/IOS.md).
        .library(name: "Lifetrace", targets: ["Lifetrace"]),
        .library(name: "LifecycleHost", targets: ["LifecycleHost"]),
        .library(name: "LifetraceSupervisor", targets: ["LifetraceSupervisor"]),
        .executable(name: "SampleApp", targets: ["SampleApp"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // The history store: SQLite through the system's libsqlite3 (libsqlite3-dev).
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]
        ),
        .target(name: "CCRC32C"),
        .target(name: "CRecorderSignals"),
        // The format, without libzstd: the in-app recorder links it. Chunk frames are written and
        // read through a codec the caller gives; this module's own writes raw blocks.
        .target(
            name: "LifetraceFormat",
            dependencies: ["CCRC32C", .product(name: "HeapModule", package: "swift-collections")]
        ),
        // What the command-line side writes for people and tools (the JSON writer, durations, text
        // escapers, the trace's text forms, spools), out of the format module the app links.
        .target(
            name: "LifetraceOutput",
            dependencies: ["LifetraceFormat"]
        ),
        // Instruments exports (`xcrun xctrace export` XML) converted into traces; FoundationXML.
        .target(
            name: "LifetraceInstruments",
            dependencies: ["LifetraceFormat"]
        ),
        // The libzstd codec: the only module that imports CZstd, linked by the command-line side.
        .target(
            name: "LifetraceZstd",
            dependencies: ["CZstd", "LifetraceFormat"]
        ),
        .target(
            name: "LifecycleModel",
            dependencies: ["LifetraceFormat"]
        ),
        // The reference workload, out of the format module that the in-app recorder links.
        .target(
            name: "LifetraceSynthesis",
            dependencies: ["LifetraceFormat", "LifecycleModel", .product(name: "HeapModule", package: "swift-collections")]
        ),
        .target(
            name: "LifetraceAnalysis",
            dependencies: ["LifetraceOutput", "LifetraceFormat", "LifecycleModel"]
        ),
        // The inputs: the one module that opens trace files (with the codec, Instruments exports
        // converted), finds the traces under a directory, and drives the analyzer over them, alone
        // or in batches side by side on the usable cores; the symbolizer of stack samples.
        .target(
            name: "LifetraceRunner",
            dependencies: ["LifetraceOutput", "LifetraceFormat", "LifetraceZstd", "LifetraceInstruments", "LifetraceAnalysis"]
        ),
        .target(
            name: "LifetraceRules",
            dependencies: ["LifetraceOutput", "LifetraceFormat", "LifecycleModel", "LifetraceAnalysis", .product(name: "Yams", package: "Yams")]
        ),
        .target(
            name: "LifetraceReports",
            dependencies: ["LifetraceOutput", "LifetraceFormat", "LifecycleModel", "LifetraceAnalysis", "LifetraceRunner"]
        ),
        // The history of builds: one SQLite store of every run's figures, their series and change points.
        .target(
            name: "LifetraceHistory",
            dependencies: [
                "LifetraceOutput", "LifetraceFormat", "LifetraceZstd", "LifecycleModel", "LifetraceAnalysis", "LifetraceRunner",
                "LifetraceReports", .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, to bind a build's rows in place (`BatchedInsert`).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "LifetraceExport",
            dependencies: ["LifetraceOutput", "LifetraceFormat", "LifetraceRunner", "LifetraceAnalysis", "LifecycleModel"]
        ),
        .target(
            name: "LifetraceRecorder",
            dependencies: [
                "LifetraceFormat",
                "CRecorderSignals",
                .product(name: "Atomics", package: "swift-atomics"),
            ]
        ),
        // The in-app adoption: the platform-neutral adapter (tested here), the trace directory and
        // its retention, signposts, and the UIKit adapter (`#if canImport(UIKit)`, not built here).
        .target(
            name: "Lifetrace",
            dependencies: ["LifetraceRecorder", "LifetraceFormat"]
        ),
        .target(
            name: "LifecycleHost",
            dependencies: ["LifetraceRecorder", "LifetraceFormat"]
        ),
        .target(
            name: "LifetraceSupervisor",
            dependencies: [
                "LifetraceOutput",
                "LifetraceRecorder",
                "LifecycleHost",
                "LifetraceFormat",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .executableTarget(
            name: "SampleApp",
            dependencies: ["LifecycleHost", "LifetraceRecorder"],
            path: "Samples/SampleApp",
            // Frame pointers in optimized builds too, so that stack samples walk through the app's
            // frames (swiftc omits them at -O on Linux; docs/RECORDING.md, "Stack samples").
            swiftSettings: [.unsafeFlags(["-Xcc", "-fno-omit-frame-pointer"])]
        ),
        // `Lifetrace.start()` in a `main.swift`, run on Linux by docs/IOS.md.
        .executableTarget(
            name: "AdoptionDemo",
            dependencies: ["Lifetrace"],
            path: "Samples/AdoptionDemo"
        ),
        // `Lifetrace.start()` and `Lifetrace.stop()` in a process of their own, for LifetraceTests.
        .executableTarget(
            name: "LifetraceStartProbe",
            dependencies: ["Lifetrace"],
            path: "Tests/LifetraceStartProbe"
        ),
        .executableTarget(
            name: "RecorderProbe",
            dependencies: ["LifetraceRecorder", "LifetraceFormat", "LifetraceZstd"],
            path: "Tests/RecorderProbe"
        ),
        .executableTarget(
            name: "LifetraceCLI",
            dependencies: [
                "LifetraceOutput",
                "LifetraceFormat",
                "LifetraceZstd",
                "LifetraceSynthesis",
                "LifetraceAnalysis",
                "LifetraceRunner",
                "LifetraceReports",
                "LifetraceRules",
                "LifetraceExport",
                "LifetraceHistory",
                "LifetraceRecorder",
                "LifetraceSupervisor",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .testTarget(
            name: "LifetraceFormatTests",
            dependencies: ["LifetraceOutput", "LifetraceFormat", "LifetraceZstd", "LifetraceRunner", "LifetraceSynthesis"]
        ),
        .testTarget(
            name: "LifetraceSynthesisTests",
            dependencies: ["LifetraceSynthesis", "LifecycleModel", "LifetraceFormat"]
        ),
        .testTarget(
            name: "LifetraceZstdTests",
            dependencies: ["LifetraceZstd", "LifetraceFormat"]
        ),
        // Runs the built `lifetrace` for the command tests of several modules.
        .target(
            name: "LifetraceTestSupport",
            dependencies: ["LifetraceAnalysis", "LifetraceFormat", "LifetraceZstd", "LifetraceRunner"],
            path: "Tests/LifetraceTestSupport"
        ),
        .testTarget(
            name: "LifetraceCLITests",
            dependencies: [
                "LifetraceOutput", "LifetraceFormat", "LifetraceZstd", "LifetraceAnalysis", "LifetraceRunner", "LifetraceCLI",
                "LifetraceTestSupport", .product(name: "Yams", package: "Yams"),
            ]
        ),
        .testTarget(
            name: "LifetraceInstrumentsTests",
            dependencies: [
                "LifetraceInstruments", "LifetraceFormat", "LifetraceZstd", "LifetraceAnalysis", "LifetraceCLI", "LifetraceTestSupport",
            ]
        ),
        .testTarget(
            name: "LifecycleModelTests",
            dependencies: ["LifecycleModel", "LifetraceFormat"]
        ),
        .testTarget(
            name: "LifetraceAnalysisTests",
            dependencies: [
                "LifetraceAnalysis", "LifecycleModel", "LifetraceFormat", "LifetraceZstd", "LifetraceRunner", "LifetraceSynthesis",
                "LifetraceRules", "LifetraceCLI", "LifetraceTestSupport",
            ]
        ),
        .testTarget(
            name: "LifetraceRulesTests",
            dependencies: [
                "LifetraceRules", "LifetraceAnalysis", "LifecycleModel", "LifetraceFormat", "LifetraceRunner", "LifetraceCLI",
                "LifetraceTestSupport",
            ]
        ),
        .testTarget(
            name: "LifetraceReportsTests",
            dependencies: ["LifetraceOutput", "LifetraceReports", "LifetraceAnalysis", "LifetraceRunner", "LifecycleModel", "LifetraceFormat", "LifetraceCLI", "LifetraceTestSupport"]
        ),
        .testTarget(
            name: "LifetraceHistoryTests",
            dependencies: [
                "LifetraceHistory", "LifetraceOutput", "LifetraceReports", "LifetraceAnalysis", "LifecycleModel", "LifetraceFormat", "LifetraceZstd",
                "LifetraceCLI", "LifetraceTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "LifetraceExportTests",
            dependencies: [
                "LifetraceOutput",
                "LifetraceExport", "LifetraceAnalysis", "LifetraceReports", "LifetraceFormat", "LifetraceZstd", "LifetraceRunner",
                "LifetraceSynthesis", "LifetraceCLI", "LifetraceTestSupport",
            ]
        ),
        .testTarget(
            name: "LifetraceRecorderTests",
            dependencies: ["LifetraceRecorder", "LifetraceFormat", "LifetraceZstd", "RecorderProbe"]
        ),
        .testTarget(
            name: "LifetraceTests",
            dependencies: [
                "Lifetrace", "LifetraceRecorder", "LifetraceFormat", "LifetraceZstd", "LifetraceAnalysis", "LifetraceRunner",
                "LifetraceTestSupport", "AdoptionDemo", "LifetraceStartProbe",
            ]
        ),
        .testTarget(
            name: "LifecycleHostTests",
            dependencies: ["LifecycleHost", "LifetraceRecorder", "LifetraceFormat"]
        ),
        .testTarget(
            name: "LifetraceSupervisorTests",
            dependencies: [
                "LifetraceOutput",
                "LifetraceSupervisor", "LifetraceRecorder", "LifetraceFormat", "LifetraceZstd", "LifetraceAnalysis", "LifetraceRunner",
                "LifecycleModel", "SampleApp",
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
