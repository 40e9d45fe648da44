import ArgumentParser

@main
struct PayloadConsole: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "payload-console",
        abstract: "A web console for managed iOS apps and kiosk devices.",
        subcommands: [Serve.self, Migrate.self, CopyCommand.self, UserCommand.self, TokenCommand.self],
        defaultSubcommand: Serve.self)
}

/// The database option every subcommand shares.
struct DatabaseOption: ParsableArguments {
    @Option(name: .customLong("db"), help: "The SQLite database file (created when missing), or postgres://user@host:port/name.")
    var path = "data/payload-console.sqlite"

    @Option(name: .customLong("logs-db"), help: "The log store's SQLite file (default: beside --db, named <name>-logs.sqlite).")
    var logsPath: String?
}
