import ArgumentParser
import Foundation

/// The measurements behind the speed targets, an executable of its own so the console's
/// production module carries none of their code: `swift build --product payload-console-bench`.
@main
struct PayloadConsoleBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "payload-console-bench", abstract: "Measurements behind the speed targets (see Benchmarks/README.md).",
        subcommands: [Policy.self, Seed.self, SeedLogs.self, Ingest.self, ReadLogs.self, SeedMDM.self, SignMDMReports.self, PushFlood.self])

    /// The database the measurement fills or reads; its log store is opened beside it.
    struct DatabaseOption: ParsableArguments {
        @Option(name: .customLong("db"), help: "The SQLite database file (created when missing), or postgres://user@host:port/name.")
        var path: String
    }

    struct Policy: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Time the effective policy of a device reached by 20 profiles over 5 group levels.")

        @Option(help: "How many computations to time.")
        var iterations = 20_000

        func run() async throws {
            let result = BenchmarkSupport.effectivePolicy(iterations: iterations)
            print(String(format: "effective policy, 20 profiles over 5 levels: mean %.1f µs, p99 %.1f µs (target ≤ 1000 µs)", result.mean, result.p99))
        }
    }

    struct Seed: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Fill a database with profiles and devices for the page benchmarks.")

        @OptionGroup var database: DatabaseOption

        @Option var profiles = 1_000
        @Option var devices = 10_000
        @Option(help: "Write every device's check-in token to this file, one per line.")
        var tokensFile: String?

        func run() async throws {
            let tokens = try await BenchmarkSupport.seed(databasePath: database.path, profiles: profiles, devices: devices)
            if let tokensFile {
                try (tokens.joined(separator: "\n") + "\n").write(toFile: tokensFile, atomically: true, encoding: .utf8)
            }
            print("Seeded \(profiles) profiles and \(devices) devices into \(database.path)")
        }
    }

    struct SeedLogs: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "seed-logs",
            abstract: "Add log lines through LogStore.append, 500 to a write, and print the rate and the store's size.",
            discussion: """
                The first run on a database also creates the devices (with tokens), the apps, a logging \
                profile collecting every level and a cap that never refuses; later runs add lines after \
                the ones there. Lines come from a fixed vocabulary (see BenchLogLines).
                """)

        @OptionGroup var database: DatabaseOption

        @Option var lines = 5_000_000
        @Option var apps = 50
        @Option var devices = 10_000
        @Option(help: "Write the new devices' tokens to this file, one per line.")
        var tokensFile: String?
        @Option(help: "Also write upload bodies of 500 lines (body-000.ndjson, …) to this directory.")
        var bodiesDir: String?
        @Option(help: "How many upload bodies to write.")
        var bodies = 64

        func run() async throws {
            if let bodiesDir { try BenchmarkSupport.writeLogBodies(to: bodiesDir, count: bodies, apps: apps) }
            let result = try await BenchmarkSupport.seedLogs(databasePath: database.path, lines: lines, apps: apps, devices: devices)
            if let tokensFile, !result.deviceTokens.isEmpty {
                try (result.deviceTokens.joined(separator: "\n") + "\n").write(toFile: tokensFile, atomically: true, encoding: .utf8)
            }
            print(String(format: "seeded %d lines in-process (LogStore.append, 500 a write): %.0f lines/s over %.1f s",
                         result.added, Double(result.added) / result.seconds, result.seconds))
            print(String(format: "indexed them behind the writer (LogIndexer): %.0f lines/s over %.1f s",
                         Double(result.added) / result.indexingSeconds, result.indexingSeconds))
            let perLine = Double(result.fileBytes) / Double(max(result.totalLines, 1))
            var size = String(format: "store: %d lines, log store file %.1f MB, %.0f bytes a line", result.totalLines, Double(result.fileBytes) / 1_048_576, perLine)
            if let table = result.logTableBytes { size += String(format: " (lines and their indexes %.0f, ", Double(table) / Double(max(result.totalLines, 1))) }
            else { size += " (" }
            if let search = result.searchIndexBytes { size += String(format: "full-text index %.0f)", Double(search) / Double(max(result.totalLines, 1))) }
            print(size)
        }
    }

    struct Ingest: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Store the upload bodies' lines in-process, through LogStore.append and by raw SQLite, and time decoding them.")

        @OptionGroup var database: DatabaseOption

        @Option(help: "The directory seed-logs --bodies-dir wrote.")
        var bodiesDir: String
        @Option(help: "How many lines to store each way.")
        var lines = 500_000

        func run() async throws {
            let result = try await BenchmarkSupport.ingest(databasePath: database.path, bodiesDirectory: bodiesDir, lines: lines)
            print(String(format: "in-process decode + check of the upload bodies (LogUpload.lines, LogBatch.problem), one core: %.0f lines/s", result.decodeRate))
            if let gzip = result.gzipDecodeRate { print(String(format: "  the same, gzip bodies: %.0f lines/s", gzip)) }
            print(String(format: "in-process insert through the ORM (LogStore.append in database.write, 500 a batch): %.0f lines/s", result.ormRate))
            print(String(format: "in-process raw SQLite insert (prepared INSERT, 500 a transaction, FTS index as LogStore.append keeps it): %.0f lines/s", result.rawRate))
        }
    }

    struct ReadLogs: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "read-logs", abstract: "Read the oldest lines as the NDJSON export does, without HTTP: raw SQLite, chunked reads, and with formatting.")

        @OptionGroup var database: DatabaseOption

        @Option var lines = 1_000_000

        func run() async throws {
            let result = try await BenchmarkSupport.readLogs(databasePath: database.path, lines: lines)
            print(String(format: "in-process raw SQLite read of %d lines (one SELECT of the export's columns): %.0f lines/s", lines, result.rawRate))
            print(String(format: "in-process export chunks (LogQueries.export, 2,000 a read), rows only: %.0f lines/s", result.chunkedRate))
            print(String(format: "in-process export chunks with NDJSON formatting (LogExport.append): %.0f lines/s, %.1f MB", result.formattedRate,
                         Double(result.bytes) / 1_048_576))
        }
    }
}
