import App
import ArgumentParser
import Foundation
import Logging
import Storage

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the console over HTTP.")

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on.")
    var port = 8080

    @OptionGroup var database: DatabaseOption

    @Option(name: .customLong("data-dir"), help: "Where an older console kept its signing certificate (signing/): taken into the database at start, never written.")
    var dataDirectory = "data"

    @Flag(help: "Create the demo accounts with fresh passwords printed at start.")
    var demo = false

    @Option(help: "The folder of Mustache templates.")
    var templates = "Templates"

    @Option(name: .customLong("help-pages"), help: "The folder of the help pages' Markdown files.")
    var helpPages = "docs/help"

    @Option(name: .customLong("public"), help: "The folder of static files (CSS, scripts).")
    var publicDirectory = "Public"

    @Flag(name: .customLong("secure-cookies"), help: "Mark cookies Secure (set this when a TLS proxy serves the console).")
    var secureCookies = false

    @Option(name: .customLong("drain-delay"),
            help: "Seconds to go on serving after SIGTERM with /readyz answering 503, so a load balancer stops sending work first.")
    var drainDelay: Double = 0

    @Option(name: .customLong("public-url"),
            help: "The address devices reach the console at, written into enrollment profiles (https://mdm.example.com; default http://HOST:PORT).")
    var publicURL: String?

    @Option(name: .customLong("apns-url"), help: "Apple's push service (the default), or a stand-in for tests.")
    var apnsURL = "https://api.push.apple.com"

    @Option(name: .customLong("apns-ca"), help: "A PEM file of certificates to trust for the push service instead of the system's (a test's stand-in).")
    var apnsTrustRoots: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    func validate() throws {
        guard (0...300).contains(drainDelay) else { throw ValidationError("--drain-delay must be 0–300 seconds") }
        for (option, value) in [("--public-url", publicURL), ("--apns-url", apnsURL)] {
            guard let value else { continue }
            guard let url = URLComponents(string: value), ["http", "https"].contains(url.scheme), url.host?.isEmpty == false,
                  url.query == nil, url.fragment == nil, url.user == nil
            else { throw ValidationError("\(option) must be an http or https address without query or fragment, as in https://mdm.example.com") }
        }
    }

    func run() async throws {
        var config = AppConfig()
        config.host = host
        config.port = port
        config.databasePath = database.path
        config.logDatabasePath = database.logsPath
        config.dataDirectory = dataDirectory
        config.demo = demo
        config.templatesDirectory = templates
        config.helpDirectory = helpPages
        config.publicDirectory = publicDirectory
        config.secureCookies = secureCookies
        config.drainDelay = .seconds(drainDelay)
        config.publicURL = publicURL
        config.apnsURL = apnsURL
        if let apnsTrustRoots {
            config.apnsTrustRootsPEM = try String(contentsOfFile: apnsTrustRoots, encoding: .utf8)
        }
        var logger = Logger(label: "payload-console")
        logger.logLevel = logLevel

        // While this process serves an SQLite file, `copy` refuses to read it half-written.
        let served: ServingMark? = if case .sqlite(let path) = try DatabaseLocation(config.databasePath) { try ServingMark.hold(path) } else { nil }
        defer { withExtendedLifetime(served) {} }
        let console = try await buildConsole(config: config, logger: logger)
        // Written unbuffered, so the passwords reach a log file or pipe at once.
        let lines = console.startupNotes + ["Payload Console is serving on http://\(host):\(port)"]
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        try await console.run()
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
