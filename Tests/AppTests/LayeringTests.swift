import Foundation
import Testing

/// The layering `docs/ARCHITECTURE.md` describes, checked on the source: controllers read
/// through readers and change through services, so a rule or a query lives in one place.
@Suite struct LayeringTests {
    static let appSources = TestConsole.packageRoot.appendingPathComponent("Sources/App")

    /// Every controller file (`…Controller.swift`, `…Controller+….swift`) under Sources/App.
    static func controllerFiles() throws -> [URL] {
        let files = FileManager.default.enumerator(at: appSources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return files.filter { $0.pathExtension == "swift" && $0.deletingPathExtension().lastPathComponent.contains("Controller") }
    }

    @Test func noControllerOpensATransactionOrWritesSQL() throws {
        let files = try Self.controllerFiles()
        #expect(files.count > 20, "the scan must find the controllers it guards")
        var offenders: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains("database.read") || line.contains("database.write") || line.contains("connection.execute")
                || line.contains("SELECT ") || line.contains("UPDATE ") || line.contains("DELETE FROM") || line.contains("INSERT INTO") {
                offenders.append("\(file.lastPathComponent):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(offenders.isEmpty, "controllers reach the database only through readers and services:\n\(offenders.joined(separator: "\n"))")
    }
}
