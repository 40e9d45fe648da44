// swift-tools-version:6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "payload-console",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "payload-console", targets: ["PayloadConsole"]),
        .executable(name: "payload-console-bench", targets: ["PayloadConsoleBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // Already in the graph through Hummingbird; named for NIOThreadPool, where bcrypt runs.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        // The PostgreSQL wire protocol beneath our ORM's second backend (issue 26).
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // HTTP/2 with a client certificate to Apple's push service (MDM wake-ups, issue 44): a
        // stream per push on one connection, without a general HTTP client's per-request machinery.
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        // Already in the graph through PostgresNIO; named for the push connection's TLS.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
    ],
    targets: [
        // System libraries: each is a module map over a Debian -dev package.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CMarkdown", pkgConfig: "libmarkdown", providers: [.apt(["libmarkdown2-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        // zlib inflates gzip-compressed log uploads from devices.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),

        // Storage: our small ORM over SQLite (embedded, the default) or PostgreSQL (a server, for
        // fleets that outgrow one file). Knows nothing of HTTP or payloads.
        .target(
            name: "Storage",
            dependencies: ["CSQLite", .product(name: "PostgresNIO", package: "postgres-nio")],
            swiftSettings: swiftSettings
        ),
        // Domain: roles, payloads, policy rules, device behaviour. Pure Swift.
        .target(name: "Domain", swiftSettings: swiftSettings),
        // Side libraries over C: Markdown rendering with sanitising, CMS signing.
        .target(name: "Markdown", dependencies: ["CMarkdown"], swiftSettings: swiftSettings),
        .target(name: "Signing", dependencies: ["COpenSSL"], swiftSettings: swiftSettings),
        // Push: wakes MDM devices through Apple's push service (APNs) over HTTP/2.
        .target(
            name: "Push",
            dependencies: [
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // App: the Hummingbird application, routes, views, sessions, auth.
        .target(
            name: "App",
            dependencies: [
                "Storage", "Domain", "Markdown", "Signing", "Push", "CZlib",
                .product(name: "Hummingbird", package: "hummingbird"),
                // URI, for reading query strings as forms send them (Web/FormQuery.swift).
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // The signals Console.run drains on (SIGTERM, SIGINT).
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // The thin command-line entry point.
        .executableTarget(
            name: "PayloadConsole",
            dependencies: [
                "App", "Storage", "Domain",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The measurements behind the speed targets (Benchmarks/README.md), kept out of App so
        // production code carries none of them; they reach App's internals through `package`.
        .executableTarget(
            name: "PayloadConsoleBench",
            dependencies: [
                "App", "Storage", "Domain", "CSQLite", "Signing", "Push",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Benchmarks/Bench",
            swiftSettings: swiftSettings
        ),

        .testTarget(
            name: "StorageTests",
            dependencies: [
                "Storage",
                // SQLite's process-wide state, which no connection shows.
                "CSQLite",
                // The driver's own connection, for requests sent after it closed.
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // QRFixtures: segno's QR symbols and the script that made them; QRCodeTests reads them by path.
        .testTarget(name: "DomainTests", dependencies: ["Domain"], exclude: ["QRFixtures"], swiftSettings: swiftSettings),
        .testTarget(name: "MarkdownTests", dependencies: ["Markdown"], swiftSettings: swiftSettings),
        .testTarget(name: "SigningTests", dependencies: ["Signing"], swiftSettings: swiftSettings),
        .testTarget(
            name: "PushTests",
            dependencies: [
                "Push",
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            exclude: ["Certificates"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "AppTests",
            dependencies: [
                "App", "Storage", "Domain", "Signing",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
