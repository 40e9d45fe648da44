import Foundation
import Storage

/// Which console runs each background job, and when it is next due: one row per job in the
/// database every instance shares. A run is claimed by one UPDATE that only a job that is due
/// and free (or whose holder stopped renewing) matches, so of several instances asking at once
/// exactly one runs it — SQLite's single writer and PostgreSQL's row lock both see to that.
struct JobLeases: Sendable {
    let database: Database
    /// This console among the instances, as it appears in `holder` and the logs.
    let instance: String
    let now: @Sendable () -> Date

    /// How long a claim holds without being renewed: a console that dies during a run leaves
    /// the job to another after this long.
    static let lease: TimeInterval = 120

    /// Claims the next run of `job` when it is due (first use: at once); the next one is due
    /// `interval` after this one starts.
    func claim(_ job: String, every interval: TimeInterval) async throws -> Bool {
        let time = now()
        return try await database.write { connection in
            _ = try connection.execute("INSERT INTO job_leases (job, nextDueAt) VALUES (\(job), \(time)) ON CONFLICT (job) DO NOTHING")
            return try connection.execute("""
                UPDATE job_leases SET holder = \(instance), leaseUntil = \(time.addingTimeInterval(Self.lease)),
                       nextDueAt = \(time.addingTimeInterval(interval)), lastStartedAt = \(time), lastHolder = \(instance), runs = runs + 1
                WHERE job = \(job) AND ((holder IS NULL AND nextDueAt <= \(time)) OR (holder IS NOT NULL AND leaseUntil < \(time)))
                """) == 1
        }
    }

    /// Extends this console's claim; false when it no longer holds it (it stalled past the
    /// lease and another console took the job over).
    func renew(_ job: String) async throws -> Bool {
        let time = now()
        return try await database.write { connection in
            try connection.execute("UPDATE job_leases SET leaseUntil = \(time.addingTimeInterval(Self.lease)) WHERE job = \(job) AND holder = \(instance)") == 1
        }
    }

    /// Ends this console's run, with a word on how it went.
    func finish(_ job: String, outcome: String) async throws {
        let time = now()
        try await database.write { connection in
            _ = try connection.execute("""
                UPDATE job_leases SET holder = NULL, leaseUntil = NULL, lastFinishedAt = \(time), lastOutcome = \(outcome)
                WHERE job = \(job) AND holder = \(instance)
                """)
        }
    }

    /// Every job's row, for the console's status and for tests.
    func all() async throws -> [JobLeaseRecord] {
        try await database.read { try $0.fetch(JobLeaseRecord.self, "SELECT * FROM job_leases ORDER BY job") }
    }
}

/// A background job's row (`JobLeases`).
struct JobLeaseRecord: Decodable, Sendable {
    let job: String
    let holder: String?
    let leaseUntil: Date?
    let nextDueAt: Date?
    let lastStartedAt: Date?
    let lastFinishedAt: Date?
    let lastOutcome: String
    let lastHolder: String
    let runs: Int
}
