@testable import App
import Domain
import Foundation
import Storage
import Testing

/// Images nothing refers to any more go; the ones a profile version names, and uploads younger
/// than the cutoff (a form re-rendered with them may still be saved), stay.
@Suite struct ImageSweepTests {
    static func image(_ key: String, uploaded: Date, in connection: Connection) throws -> ImageRecord {
        try connection.insert(ImageRecord(key: key, mediaType: "image/png", width: 1, height: 1, byteCount: 3,
                                          bytes: Data([1, 2, 3]), uploadedBy: "ann@example.com", createdAt: uploaded))
    }

    @Test func imagesNoVersionNamesGoOnceOldEnough() async throws {
        let console = try await TestConsole.make()
        let now = Date()
        let dayAgo = now.addingTimeInterval(-2 * 86_400)
        let (kept, deletedProfilesLogo) = try await console.services.database.write { connection in
            _ = try Self.image("5a0c6f2e-0000-4000-8000-000000000001-left", uploaded: dayAgo, in: connection)
            _ = try Self.image("5a0c6f2e-0000-4000-8000-000000000002-fresh", uploaded: now, in: connection)
            return (try Self.image("5a0c6f2e-0000-4000-8000-000000000003-kept", uploaded: dayAgo, in: connection),
                    try Self.image("5a0c6f2e-0000-4000-8000-000000000004-gone", uploaded: dayAgo, in: connection))
        }
        let store = ProfileStore(database: console.services.database, now: { now })
        func branded(_ name: String, _ logo: ImageRecord) -> ProfileContent {
            ProfileContent(name: name).setting(Payload(Branding(appLogo1x: logo.reference)))
        }
        _ = try await store.create(identifier: "com.example.kept", content: branded("Kept", kept), by: .system)
        let deleted = try await store.create(identifier: "com.example.gone", content: branded("Gone", deletedProfilesLogo), by: .system)
        _ = try await store.delete(deleted.id, by: .system)

        let swept = try await console.services.images.deleteUnreferenced(uploadedBefore: now.addingTimeInterval(-86_400))
        #expect(swept.images == 2 && swept.bytes == 6)
        let left = try await console.services.database.read { try $0.fetch(ImageRecord.query().order(by: "key")).map(\.key) }
        #expect(left == ["5a0c6f2e-0000-4000-8000-000000000002-fresh", "5a0c6f2e-0000-4000-8000-000000000003-kept"])
        // The kept profile still exports its logo.
        #expect(try await console.services.images.image(key: kept.key)?.bytes == Data([1, 2, 3]))
    }
}
