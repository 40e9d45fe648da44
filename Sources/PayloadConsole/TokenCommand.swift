import App
import ArgumentParser
import Domain
import Foundation

struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Manage API tokens for scripts.", subcommands: [Create.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an API token and print it (only this once).",
            discussion: "Send it as `Authorization: Bearer <token>` to the API under /api/v1.")

        @Option(help: "admin, helpdesk or viewer.")
        var role: Role

        @Option(help: "What the token is for, shown on the API tokens page.")
        var name = "command line"

        @OptionGroup var database: DatabaseOption

        func run() async throws {
            do {
                print(try await Maintenance.createToken(databasePath: database.path, logDatabasePath: database.logsPath, name: name, role: role))
            } catch let refusal as Maintenance.Refusal {
                FileHandle.standardError.write(Data((refusal.description + "\n").utf8))
                throw ExitCode.failure
            }
        }
    }
}
