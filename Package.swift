// swift-tools-version:6.1

import PackageDescription

let package = Package(
    name: "lifetrace",
    products: [
        .executable(name: "lifetrace", targets: ["LifetraceCLI"]),
        .library(name: "LifetraceFormat", targets: ["LifetraceFormat"]),
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
        .executableTarget(
            name: "LifetraceCLI",
            dependencies: [
                "LifetraceFormat",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "LifetraceFormatTests",
            dependencies: ["LifetraceFormat"]
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
