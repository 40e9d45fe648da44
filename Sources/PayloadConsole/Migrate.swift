import App
import ArgumentParser

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Bring the database schema up to date, then exit.")

    @OptionGroup var database: DatabaseOption

    func run() async throws {
        let lines = try Maintenance.migrate(databasePath: database.path, logDatabasePath: database.logsPath)
        print(lines.isEmpty ? "The database is up to date." : lines.joined(separator: "\n"))
    }
}
