import Foundation

/// Everything that varies between a laptop demo, a production start and a test.
public struct AppConfig: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// SQLite file; ":memory:" gives tests a private database.
    public var databasePath = "data/payload-console.sqlite"
    /// The log store's file; nil keeps it beside the console's (`…-logs.sqlite`, or in memory).
    public var logDatabasePath: String?
    /// Index uploaded lines in the background while serving; tests that need lines to stay
    /// unindexed turn it off.
    public var indexesLogs = true
    /// Where a console before schema migration 22 kept its signing identity as files
    /// (`signing/`), adopted into the database at start. Nothing is written there: whatever a
    /// console generates or is given lives in the database, which every instance shares.
    public var dataDirectory = "data"
    /// Seed demo accounts (and, as features land, demo data) at start.
    public var demo = false
    public var templatesDirectory = "Templates"
    public var publicDirectory = "Public"
    /// The help pages' Markdown files.
    public var helpDirectory = "docs/help"
    /// bcrypt work factor: 12 in production; tests lower it to keep suites fast.
    public var bcryptCost: UInt8 = 12
    /// Mark cookies Secure even without an `X-Forwarded-Proto: https` header from a TLS proxy.
    public var secureCookies = false
    /// The first admin created on an empty database without `--demo`.
    public var firstAdminEmail = "admin@example.com"
    public var sessionLifetime: TimeInterval = 12 * 3600
    /// How long the console goes on serving after SIGTERM with `/readyz` at 503, before it stops
    /// accepting connections: time for a load balancer that polls readiness to stop sending
    /// work. Nothing by default, so a console alone stops at once.
    public var drainDelay: Duration = .zero
    /// The address devices reach the console at (`serve --public-url`), written into
    /// enrollment profiles; nil means `http://host:port`, which only a device on this machine's
    /// network reaches, and only in tests (real devices speak HTTPS only).
    public var publicURL: String?
    /// Apple's push service; tests point it at a local stand-in.
    public var apnsURL = "https://api.push.apple.com"
    /// PEM certificates to trust for the push service instead of the system's: a test's
    /// stand-in presents a certificate no public CA issued.
    public var apnsTrustRootsPEM: String?
    /// The clock, replaceable so tests can move time (session expiry, sign-in throttle).
    public var now: @Sendable () -> Date = { Date() }

    public init() {}

    /// The console's address as devices reach it, without a trailing slash.
    var deviceBaseURL: String {
        var url = publicURL ?? "http://\(host):\(port)"
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}
