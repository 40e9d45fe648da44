// swift-tools-version:6.2
import PackageDescription

// The anchor for the console's speed figures: Hummingbird 2 with one route and nothing else,
// built and measured in the same run as the console, so each figure can be stated as a share
// of what the framework alone does on this machine at that moment.
let package = Package(
    name: "bare-route",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    ],
    targets: [
        .executableTarget(name: "BareRoute", dependencies: [.product(name: "Hummingbird", package: "hummingbird")]),
    ]
)
