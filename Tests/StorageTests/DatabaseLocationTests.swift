import Foundation
import Storage
import Testing

/// `--db` as an admin types it: a file path keeps SQLite; a `postgres://` URL names a server,
/// and what is wrong with one is said in a line that never repeats its password.
@Suite struct DatabaseLocationTests {
    @Test func aFilePathIsAnSQLiteFile() throws {
        #expect(try DatabaseLocation("data/payload-console.sqlite") == .sqlite(path: "data/payload-console.sqlite"))
        #expect(try DatabaseLocation(":memory:") == .sqlite(path: ":memory:"))
    }

    @Test func aURLNamesTheServerRoleAndDatabaseAndHidesThePassword() throws {
        let location = try DatabaseLocation("postgres://console:s3cret%21@db.internal:6432/fleet?pool=12")
        guard case .postgres(let server) = location else { Issue.record("not PostgreSQL"); return }
        #expect(server.address == .tcp(host: "db.internal", port: 6432))
        #expect(server.username == "console")
        #expect(server.password == "s3cret!")
        #expect(server.database == "fleet")
        #expect(server.poolSize == 12)
        #expect("\(location)" == "postgres://console@db.internal:6432/fleet")
        #expect(!"\(location)".contains("s3cret"))
    }

    @Test func theSocketFormConnectsThroughTheFolderGiven() throws {
        guard case .postgres(let server) = try DatabaseLocation("postgresql:///fleet?host=/run/postgresql&user=pc") else {
            Issue.record("not PostgreSQL")
            return
        }
        #expect(server.address == .unixSocket(path: "/run/postgresql/.s.PGSQL.5432"))
        #expect(server.username == "pc")
        #expect(server.database == "fleet")
    }

    @Test(arguments: [
        ("postgres://console@db.internal:5432/", "names no database"),
        ("postgres://console@db.internal:99999/fleet", "port"),
        ("postgres://console@db.internal/fleet?pool=1", "pool"),
        ("postgres://console@db.internal/fleet?sslmode=verify-full", "sslmode=verify-full"),
        ("postgres://console@db.internal/fleet?schema=a;drop", "schema"),
    ])
    func aMalformedURLSaysWhatIsWrong(url: String, complaint: String) {
        do {
            _ = try DatabaseLocation(url)
            Issue.record("\(url) should have been refused")
        } catch let StorageError.invalidLocation(message) {
            #expect(message.contains(complaint), "\(message)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func anUnreachableServerIsOneLineNamingItWithoutThePassword() throws {
        // A port nothing listens on, on loopback: refused at once.
        let location = try DatabaseLocation("postgres://console:hunter2@127.0.0.1:1/fleet")
        do {
            _ = try Database(location)
            Issue.record("nothing listens there")
        } catch let error as StorageError {
            let text = "\(error)"
            #expect(text.contains("cannot reach PostgreSQL at postgres://console@127.0.0.1:1/fleet"), "\(text)")
            #expect(!text.contains("hunter2"))
            #expect(!text.contains("\n"))
        }
    }
}
