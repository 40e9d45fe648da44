@testable import App
import Foundation
import Storage
import Testing

/// Uploads that reach the log writer together are committed together, yet each is stored
/// whole or not at all, and each caller hears its own outcome only once it is durable.
@Suite struct LogGroupCommitTests {
    private func lines() throws -> Database {
        let database = try Database(path: ":memory:")
        try database.withWriterOutsideTransactionBlocking { try $0.execute(script: "CREATE TABLE lines (upload INTEGER NOT NULL, n INTEGER NOT NULL)") }
        return database
    }

    private func store(_ upload: Int) -> @Sendable (Connection) throws -> LogStore.Refusal? {
        { connection in
            try connection.execute("INSERT INTO lines (upload, n) VALUES (?, ?)", forEachOf: (0..<50).map { [.integer(Int64(upload)), .integer(Int64($0))] })
            return nil
        }
    }

    struct HalfWayFailure: Error {}

    @Test func aFailedOrRefusedUploadLeavesTheOthersOfItsGroupStored() async throws {
        let database = try lines()
        let group = LogGroupCommit()
        let outcomes = await withTaskGroup(of: (Int, Result<LogStore.Refusal?, any Error>).self) { tasks in
            for upload in 0..<24 {
                tasks.addTask {
                    let outcome = await Result {
                        try await group.write(to: database) { connection in
                            switch upload {
                            case 7:  // fails after writing half its lines: none of them may stay
                                _ = try store(upload)(connection)
                                throw HalfWayFailure()
                            case 11: return .capReached(app: "com.example.full", capBytes: 1)
                            default: return try store(upload)(connection)
                            }
                        }
                    }
                    return (upload, outcome)
                }
            }
            var outcomes: [Int: Result<LogStore.Refusal?, any Error>] = [:]
            for await (upload, outcome) in tasks { outcomes[upload] = outcome }
            return outcomes
        }
        #expect(outcomes.count == 24)
        if case .failure(let error) = outcomes[7] { #expect(error is HalfWayFailure) } else { Issue.record("upload 7 did not fail") }
        #expect((try? outcomes[11]?.get()) == .some(.capReached(app: "com.example.full", capBytes: 1)))
        for upload in (0..<24) where upload != 7 && upload != 11 {
            #expect((try? outcomes[upload]?.get()) == .some(nil), "upload \(upload)")
        }
        let stored = try await database.read { try $0.rows("SELECT upload, count(*) AS lines FROM lines GROUP BY upload ORDER BY upload") }
            .map { [try $0.get("upload", as: Int.self), try $0.get("lines", as: Int.self)] }
        #expect(stored == (0..<24).filter { $0 != 7 && $0 != 11 }.map { [$0, 50] })
        #expect(group.uploadsWaiting == 0)
    }
}

private extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
