import Foundation
import Storage

/// A record that exercises every column kind the ORM supports.
struct Gadget: VersionedRecord, Equatable {
    static let tableName = "gadgets"

    enum Kind: String, Codable, Sendable {
        case tablet, phone
    }

    struct Settings: Codable, Sendable, Equatable {
        var volume: Int
        var tags: [String]
    }

    var id: RecordID<Gadget>?
    var name: String
    var count: Int
    var weight: Double
    var supervised: Bool
    var enrolledAt: Date
    var retiredAt: Date?
    var nickname: String?
    var token: UUID
    var kind: Kind
    var settings: Settings
    var payload: Data
    var version: Int = 1

    static func sample(_ name: String = "iPad 1") -> Gadget {
        Gadget(
            id: nil, name: name, count: 3, weight: 0.477, supervised: true,
            enrolledAt: Date(timeIntervalSince1970: 1_700_000_000.25), retiredAt: nil, nickname: nil,
            token: UUID(), kind: .tablet, settings: Settings(volume: 7, tags: ["lobby", "kiosk"]),
            payload: Data([0, 1, 2, 255]))
    }
}

struct Owner: Record, Equatable {
    static let tableName = "owners"
    var id: RecordID<Owner>?
    var name: String
}

struct Loan: Record, Equatable {
    static let tableName = "loans"
    var id: RecordID<Loan>?
    var ownerID: RecordID<Owner>
    var gadgetName: String
}

let fixtureMigrations = [
    Migration(
        1, "create gadgets",
        sql: """
            CREATE TABLE gadgets (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL UNIQUE,
                count INTEGER NOT NULL,
                weight REAL NOT NULL,
                supervised INTEGER NOT NULL,
                enrolledAt REAL NOT NULL,
                retiredAt REAL,
                nickname TEXT,
                token TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('tablet', 'phone')),
                settings TEXT NOT NULL,
                payload BLOB NOT NULL,
                version INTEGER NOT NULL
            );
            """),
    Migration(
        2, "create owners and loans",
        sql: """
            CREATE TABLE owners (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE loans (
                id INTEGER PRIMARY KEY,
                ownerID INTEGER NOT NULL REFERENCES owners(id) ON DELETE RESTRICT,
                gadgetName TEXT NOT NULL
            );
            """),
]

func makeDatabase(path: String = ":memory:") throws -> Database {
    let database = try Database(path: path)
    try Migrator(fixtureMigrations).migrate(database)
    return database
}

/// A fresh folder for file-backed tests, removed by the caller.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("storage-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
