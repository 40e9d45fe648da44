import Foundation
import Testing

/// Where code lives, as `docs/ARCHITECTURE.md` tells it: `App`'s folders are its features (and
/// the few every feature shares), each named on that page; the benchmarks' code lives beside
/// the product, not inside it.
@Suite struct SourceLayoutTests {
    static let root = TestConsole.packageRoot

    static func swiftFiles(under folder: String) -> [URL] {
        let files = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL } ?? []
        return files.filter { $0.pathExtension == "swift" }
    }

    @Test func everyFolderOfAppIsOneTheArchitecturePageNames() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        let folders = try FileManager.default.contentsOfDirectory(
            at: Self.root.appendingPathComponent("Sources/App"), includingPropertiesForKeys: [.isDirectoryKey]
        ).filter { try $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory == true }.map(\.lastPathComponent)
        #expect(folders.count > 10, "the scan must find App's folders")
        let unnamed = folders.filter { !page.contains("`\($0)/`") }.sorted()
        #expect(unnamed.isEmpty, "Sources/App folders the architecture page does not name: \(unnamed)")
    }

    @Test func productionModulesHoldNoBenchmarkCode() throws {
        let files = Self.swiftFiles(under: "Sources")
        #expect(files.count > 100, "the scan must find the sources")
        let declaration = /(struct|enum|class|func)\s+\w*Bench/
        var offenders: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            if text.contains(declaration) { offenders.append(file.path.replacingOccurrences(of: Self.root.path + "/", with: "")) }
        }
        #expect(offenders.isEmpty, "benchmark code belongs in Benchmarks/Bench (payload-console-bench): \(offenders)")
        #expect(!Self.swiftFiles(under: "Benchmarks/Bench").isEmpty, "the benchmarks' executable has moved; say where")
    }

    /// A controller states what it depends on; only start-up (which builds the services and
    /// hands each controller its part) holds them all. A feature's registration (`…Feature`)
    /// is start-up too: it reads the services once to build its controllers, keeping none.
    @Test func noControllerHoldsEveryService() throws {
        let files = Self.swiftFiles(under: "Sources/App").filter { !$0.path.contains("/Startup/") }
        #expect(files.count > 100, "the scan must find the sources")
        var offenders: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let isFeatureRegistration = file.lastPathComponent.hasSuffix("Feature.swift")
            if text.contains(/(let|var)\s+\w+:\s*Services\b/) || (!isFeatureRegistration && text.contains("services: Services")) {
                offenders.append(file.lastPathComponent)
            }
        }
        #expect(offenders.sorted().isEmpty, "these hold the whole Services instead of what they use: \(offenders.sorted())")
    }
}
