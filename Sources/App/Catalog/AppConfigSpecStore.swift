import Domain
import Foundation
import Storage

/// An app's AppConfig specfile as the console keeps it.
struct AppConfigSpecRecord: Record {
    static let tableName = "app_config_specs"

    var id: RecordID<AppConfigSpecRecord> = .unsaved
    var bundleID: String
    var fileName: String
    var spec: AppConfigSpec
    var importedAt: Date
    var importedBy: String
}

/// Imports specfiles for catalog apps and reads them back for the configuration form. A file
/// is read whole before anything is written: a refused one leaves the app's previous spec.
struct AppConfigSpecStore: Sendable {
    let database: Database
    let now: @Sendable () -> Date

    func importSpec(_ file: UploadedFile, for appID: RecordID<AppRecord>, by actor: Actor) async throws -> Result<AppConfigSpec, ImportProblem> {
        guard !file.bytes.isEmpty else { return .failure(ImportProblem(line: nil, "Choose a specfile to upload.", code: .emptyFile)) }
        guard file.bytes.count <= AppConfigSpecReader.maximumBytes else { return .failure(ImportProblem(line: nil, "A specfile holds at most 1 MB.", code: .fileTooLarge)) }
        guard let text = String(validating: file.bytes, as: UTF8.self) else {
            return .failure(ImportProblem(line: nil, "This is not a text file: a specfile is XML in UTF-8.", code: .notText))
        }
        let spec: AppConfigSpec
        do { spec = try AppConfigSpecReader.read(text) } catch { return .failure(error) }
        let time = now()
        return try await database.write { connection in
            let app = try connection.require(AppRecord.self, id: appID)
            guard spec.bundleID == app.bundleID else {
                return .failure(ImportProblem(line: nil, "This specfile describes \(spec.bundleID), not \(app.bundleID).", code: .wrongApp))
            }
            let fileName = file.displayName
            let summary = "version \(spec.version), \(Counted.phrase(spec.keys.count, "key"))" + (spec.skipped.isEmpty ? "" : ", \(spec.skipped.count) skipped")
            if var existing = try connection.fetchOne(AppConfigSpecRecord.query().filter("bundleID", .equal, app.bundleID)) {
                let before = "version \(existing.spec.version), \(Counted.phrase(existing.spec.keys.count, "key"))"
                (existing.fileName, existing.spec, existing.importedAt, existing.importedBy) = (fileName, spec, time, actor.email)
                try connection.update(existing)
                try connection.audit(.appSpecfileImported, subject: app.bundleID, by: actor, before: before, after: summary, at: time)
            } else {
                _ = try connection.insert(AppConfigSpecRecord(bundleID: app.bundleID, fileName: fileName, spec: spec, importedAt: time, importedBy: actor.email))
                try connection.audit(.appSpecfileImported, subject: app.bundleID, by: actor, after: summary, at: time)
            }
            return .success(spec)
        }
    }

    func spec(for bundleID: String) async throws -> AppConfigSpecRecord? {
        try await database.read { try $0.fetchOne(AppConfigSpecRecord.query().filter("bundleID", .equal, bundleID)) }
    }
}
