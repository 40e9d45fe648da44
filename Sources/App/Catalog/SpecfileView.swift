import Domain
import Foundation

/// The app page's specfile section: what was imported, what was not and why, and the upload.
struct SpecfileView {
    struct Key {
        let name: String
        let type: String
        let defaultValue: String
        let limits: String
        let description: String?
    }

    struct Skipped {
        let line: Int
        let keyName: String
        let reason: String
    }

    let uploadPath: String
    let bundleID: String
    let hasSpec: Bool
    let fileName: String
    let version: Int
    let imported: String
    let importedBy: String
    let keys: [Key]
    let skipped: [Skipped]
    let hasSkipped: Bool
    let error: String?

    init(app: AppRecord, stored: AppConfigSpecRecord?, error: String?, now: Date) {
        uploadPath = Site.Apps.uploadSpecfile.link(app.id)
        bundleID = app.bundleID
        hasSpec = stored != nil
        fileName = stored?.fileName ?? ""
        version = stored?.spec.version ?? 0
        imported = stored.map { DisplayTime.relative($0.importedAt, now: now) } ?? ""
        importedBy = stored?.importedBy ?? ""
        keys = (stored?.spec.keys ?? []).map { key in
            var limits: [String] = []
            if key.required { limits.append("required") }
            if let minimum = key.minimum { limits.append("min \(NumberText.plain(minimum))") }
            if let maximum = key.maximum { limits.append("max \(NumberText.plain(maximum))") }
            if let pattern = key.pattern { limits.append("pattern \(pattern)") }
            if !key.allowedValues.isEmpty { limits.append("one of " + key.allowedValues.joined(separator: ", ")) }
            return Key(name: key.name, type: key.type.displayName, defaultValue: key.value.map(PayloadFields.text) ?? "None",
                       limits: limits.joined(separator: "; "), description: key.description)
        }
        skipped = (stored?.spec.skipped ?? []).map { Skipped(line: $0.line, keyName: $0.keyName, reason: $0.reason) }
        hasSkipped = !skipped.isEmpty
        self.error = error
    }
}
