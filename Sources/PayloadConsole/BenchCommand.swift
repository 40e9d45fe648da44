import App
import ArgumentParser
import Foundation

struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Measurements behind the speed targets (see Benchmarks/README.md).",
        subcommands: [Policy.self, Seed.self])

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
}
