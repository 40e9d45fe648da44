import App
import ArgumentParser
import Domain
import Foundation

struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage console accounts.", subcommands: [Add.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add an account.",
            discussion: """
                The password is read from standard input when it is piped in \
                (echo "$PASSWORD" | payload-console user add …). From a terminal, a one-time \
                password is generated and printed; the user chooses their own at first sign-in.
                """)

        @Option(help: "The person's email address; it is their sign-in name.")
        var email: String

        @Option(help: "admin, helpdesk or viewer.")
        var role: Role

        @OptionGroup var database: DatabaseOption

        func run() async throws {
            let password = isatty(STDIN_FILENO) == 0 ? readLine(strippingNewline: true).flatMap { $0.isEmpty ? nil : $0 } : nil
            do {
                let generated = try await Maintenance.addUser(databasePath: database.path, logDatabasePath: database.logsPath, email: email, role: role, password: password)
                print("Added \(email.lowercased()) as \(role.displayName).")
                if let generated { print("One-time password: \(generated)") }
            } catch let refusal as Maintenance.Refusal {
                FileHandle.standardError.write(Data((refusal.description + "\n").utf8))
                throw ExitCode.failure
            }
        }
    }
}

extension Role: ExpressibleByArgument {}
