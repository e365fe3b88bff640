// swift-tools-version:6.1

import PackageDescription

let package = Package(
    name: "lifetrace",
    products: [
        .executable(name: "lifetrace", targets: ["LifetraceCLI"]),
        .library(name: "LifetraceFormat", targets: ["LifetraceFormat"]),
        .library(name: "LifecycleModel", targets: ["LifecycleModel"]),
        .library(name: "LifetraceAnalysis", targets: ["LifetraceAnalysis"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]
        ),
        .target(
            name: "LifetraceFormat",
            dependencies: ["CZstd"]
        ),
        .target(
            name: "LifecycleModel",
            dependencies: ["LifetraceFormat"]
        ),
        .target(
            name: "LifetraceAnalysis",
            dependencies: ["LifetraceFormat", "LifecycleModel"]
        ),
        .executableTarget(
            name: "LifetraceCLI",
            dependencies: [
                "LifetraceFormat",
                "LifetraceAnalysis",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "LifetraceFormatTests",
            dependencies: ["LifetraceFormat"]
        ),
        .testTarget(
            name: "LifecycleModelTests",
            dependencies: ["LifecycleModel", "LifetraceFormat"]
        ),
        .testTarget(
            name: "LifetraceAnalysisTests",
            dependencies: ["LifetraceAnalysis", "LifecycleModel", "LifetraceFormat"]
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
