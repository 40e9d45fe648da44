@testable import App
import Domain
import Foundation
import Storage
import Testing

/// An id, once given, never names another record: not after the newest record is deleted, and
/// not in a console whose SQLite file was made before migration 24.
@Suite struct IdsNeverReusedTests {
    static func device(_ name: String, group: RecordID<DeviceGroupRecord>? = nil) -> DeviceRecord {
        DeviceRecord(name: name, model: .iPad, osVersion: "18.1", serialNumber: "SER\(name.hashValue & 0xFFFFFF)", udid: UUID().uuidString,
                     isSupervised: true, owner: "", groupID: group, installedApps: [], enrolledAt: Date(), lastCheckInAt: nil)
    }

    @Test func theNewestRecordsIdIsNotGivenAgainAfterItIsDeleted() async throws {
        let console = try await TestConsole.make()
        let (removedDevice, nextDevice, removedGroup, nextGroup) = try await console.services.database.write { connection in
            let removed = try connection.insert(Self.device("Ward iPad"))
            try connection.delete(DeviceRecord.self, id: removed.id)
            let next = try connection.insert(Self.device("Lobby iPad"))
            let group = try connection.insert(DeviceGroupRecord(name: "Wards", parentID: nil, createdAt: Date()))
            try connection.delete(DeviceGroupRecord.self, id: group.id)
            let nextGroup = try connection.insert(DeviceGroupRecord(name: "Lobbies", parentID: nil, createdAt: Date()))
            return (removed.id, next.id, group.id, nextGroup.id)
        }
        #expect(nextDevice.rawValue > removedDevice.rawValue)
        #expect(nextGroup.rawValue > removedGroup.rawValue)
        let store = ProfileStore(database: console.services.database, now: { Date() })
        let profile = try await store.create(identifier: "com.example.first", content: ProfileContent(name: "First"), by: .system)
        _ = try await store.delete(profile.id, by: .system)
        let next = try await store.create(identifier: "com.example.second", content: ProfileContent(name: "Second"), by: .system)
        #expect(next.id.rawValue > profile.id.rawValue)
    }

    /// The rebuild keeps every row, index and trigger: the device search and the policy's
    /// generation still follow their tables afterwards.
    @Test(.enabled(if: TestBackend.current == .sqlite)) func anOlderFileKeepsItsRecordsAndStopsReusingIds() async throws {
        let folder = testRunDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = try Database(path: folder.appendingPathComponent("console.sqlite").path)
        try Migrator(Schema.migrations.filter { $0.version < Schema.idsNeverReused.version }).migrate(database)
        let store = ProfileStore(database: database, now: { Date() })
        let profile = try await store.create(identifier: "com.example.lobby", content: ProfileContent(name: "Lobby"), by: .system)
        let (group, newest) = try await database.write { connection in
            let group = try connection.insert(DeviceGroupRecord(name: "Lobbies", parentID: nil, createdAt: Date()))
            // Devices as that older file stored them: today's record has columns it lacks.
            let insert = { (name: String) in
                try connection.scalar("""
                    INSERT INTO devices (name, model, osVersion, serialNumber, udid, isSupervised, owner, groupID, installedApps, enrolledAt)
                    VALUES (\(name), 'iPad', '17.4', \("DMP" + name.prefix(4).uppercased()), \(UUID().uuidString), 1, '', \(group.id), '[]', 0) RETURNING id
                    """, as: Int64.self)
            }
            _ = try insert("Ward iPad")
            let newest = try #require(try insert("Lobby iPad"))
            return (group.id, RecordID<DeviceRecord>(newest))
        }
        let schemaObjects: SQL = "SELECT type, name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name"
        let before = try await database.read { try $0.rows(schemaObjects).map(\.values) }

        try Migrator(Schema.migrations.filter { $0.version <= Schema.idsNeverReused.version }).migrate(database)

        try await database.read { connection in
            #expect(try connection.rows(schemaObjects).map(\.values) == before, "every table, index and trigger is there again")
            #expect(try connection.scalar("PRAGMA integrity_check", as: String.self) == "ok")
            #expect(try connection.rows("PRAGMA foreign_key_check").isEmpty)
            #expect(try connection.rows("SELECT name FROM devices ORDER BY id").map { try $0.first(as: String.self) } == ["Ward iPad", "Lobby iPad"])
            #expect(try connection.require(ProfileRecord.self, id: profile.id).name == "Lobby")
            for table in Schema.tablesWithRecordIDs {
                let definition = try connection.scalar("SELECT sql FROM sqlite_schema WHERE name = \(table)", as: String.self) ?? ""
                #expect(definition.contains("id INTEGER PRIMARY KEY AUTOINCREMENT,"), "\(table)")
            }
        }
        try Migrator(Schema.migrations).migrate(database)
        let foldedBeforeUse = try await database.read { connection in
            try connection.rows("SELECT rowid FROM device_search WHERE device_search MATCH \("\"WARD\"")").map { try $0.first(as: Int64.self) }
        }
        #expect(foldedBeforeUse.count == 1, "migration 25 folds the devices already there")
        let generation = { try await database.read { try $0.scalar("SELECT value FROM policy_generation", as: Int64.self) } }
        let generationBefore = try await generation()
        let (renamedFound, reused) = try await database.write { connection in
            _ = try connection.insert(ProfileAssignmentRecord(profileID: profile.id, groupID: group, assignedAt: Date(), assignedBy: "test"))
            var device = try connection.require(DeviceRecord.self, id: newest)
            device.name = "Front desk iPad"
            try connection.update(device)
            let found = try connection.rows("SELECT rowid FROM device_search WHERE device_search MATCH \("\"desk\"")").map { try $0.first(as: Int64.self) }
            try connection.delete(DeviceRecord.self, id: newest)
            let next = try connection.insert(Self.device("Exam iPad"))
            return (found, next.id == newest)
        }
        #expect(renamedFound == [newest.rawValue], "the search index follows the rebuilt table")
        #expect(try await generation() != generationBefore, "assigning a profile still changes the policy's generation")
        #expect(!reused)
    }

    /// SQLite stores a renamed table's definition with its name quoted (`CREATE TABLE "devices" (`):
    /// a later migration must be able to rebuild a table migration 24 already rebuilt.
    @Test(.enabled(if: TestBackend.current == .sqlite)) func aRebuiltTableCanBeRebuiltAgain() async throws {
        let folder = testRunDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = try Database(path: folder.appendingPathComponent("console.sqlite").path)
        try Migrator(Schema.migrations).migrate(database)
        _ = try await database.write { try $0.insert(Self.device("Ward iPad")) }
        let seen = try await database.write { connection in
            var seen: [String] = []
            try connection.rebuildSQLiteTable("devices") { definition in
                seen.append(definition)
                return definition.replacingOccurrences(of: "AUTOINCREMENT,", with: "AUTOINCREMENT, -- again\n")
            }
            return seen
        }
        #expect(seen.first?.hasPrefix("CREATE TABLE devices (") == true, "the rewrite sees one spelling, whichever SQLite stored")
        try await database.read { connection in
            #expect(try connection.fetch(DeviceRecord.query()).map(\.name) == ["Ward iPad"])
            #expect(try connection.scalar("PRAGMA integrity_check", as: String.self) == "ok")
            let definition = try connection.scalar("SELECT sql FROM sqlite_schema WHERE name = 'devices'", as: String.self) ?? ""
            #expect(definition.contains("-- again"))
        }
    }
}
