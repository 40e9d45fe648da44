import App
import ArgumentParser
import Foundation

struct CopyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy a console from its SQLite files into an empty PostgreSQL database, ids and all.",
        discussion: "Stop the console first: lines uploaded during the copy would not be copied. Give the password in PGPASSWORD, not in the URL.")

    @Option(help: "The console's SQLite file.")
    var from = "data/payload-console.sqlite"

    @Option(name: .customLong("from-logs"), help: "Its log store's file (default: beside --from).")
    var fromLogs: String?

    @Option(help: "The PostgreSQL database: postgres://user@host:port/name")
    var to: String

    func run() async throws {
        do {
            let copy = try DatabaseCopy.prepare(from: from, sourceLogs: fromLogs, to: to) { line in
                FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
            }
            let summary = try await copy.run()
            FileHandle.standardError.write(Data("\n".utf8))
            for (table, rows) in summary.rows.sorted(by: { $0.key < $1.key }) where rows > 0 {
                print("\(table): \(rows.formatted()) rows")
            }
            let rate = Double(summary.total) / max(summary.seconds, 0.001)
            print("Copied \(summary.total.formatted()) rows in \(String(format: "%.1f", summary.seconds)) s (\(Int(rate).formatted()) rows/s); every table's count matches.")
        } catch let refusal as DatabaseCopy.Refusal {
            FileHandle.standardError.write(Data((refusal.description + "\n").utf8))
            throw ExitCode.failure
        }
    }
}
