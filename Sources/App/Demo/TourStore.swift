import Foundation
import Storage

/// Each person's place in the tour: the steps they marked done, and whether they have seen it
/// (a demo start shows it once, at the first sign-in).
struct TourStore: Sendable {
    let database: Database
    let now: @Sendable () -> Date

    struct Row: Decodable {
        let doneSteps: String
    }

    /// The tour page's reads in one snapshot: the demo's names as addresses, whether the
    /// console shows its stories, and the steps `user` has done.
    func overview(for user: RecordID<User>) async throws -> (links: DemoStoryLinks, showsStories: Bool, done: Set<String>) {
        try await database.read { connection in
            (try DemoStoryLinks.load(in: connection), try ConsoleSettings.load(from: connection).showsDemoStories,
             try Self.doneSteps(of: user, in: connection))
        }
    }

    /// The tour for `user` while it runs: the console shows its stories, the person has started
    /// it (a demo start's first sign-in or a step marked), and a step is left to do.
    func guide(for user: RecordID<User>) async throws -> TourGuide? {
        try await database.read { connection in
            guard try ConsoleSettings.load(from: connection).showsDemoStories,
                  try connection.scalar("SELECT count(*) FROM tour_progress WHERE userID = \(user)", as: Int.self) == 1 else { return nil }
            let done = try Self.doneSteps(of: user, in: connection)
            guard TourGuide.steps.contains(where: { !done.contains($0.step.id) }) else { return nil }
            return TourGuide(links: try DemoStoryLinks.load(in: connection), done: done)
        }
    }

    /// Marks a step done or not done; the first mark also counts as having seen the tour.
    func mark(_ step: String, done: Bool, by user: RecordID<User>) async throws {
        let time = now()
        try await database.write { connection in
            var steps = try Self.doneSteps(of: user, in: connection)
            if done { steps.insert(step) } else { steps.remove(step) }
            try Self.saveDoneSteps(steps, of: user, at: time, in: connection)
        }
    }

    /// Starts a story again for `user`: its steps not done, and — when `resetDevices`, for
    /// someone who may act in the simulator — the simulated devices its steps use as the demo
    /// made them (their kept state and timeline gone; the next open applies the policy afresh),
    /// so each step's promise holds on a second run. One transaction, audited.
    func restart(_ story: DemoStory, resetDevices: Bool, by user: User) async throws {
        let time = now()
        let stepIDs = Set(story.steps.map(\.id))
        try await database.write { connection in
            let steps = try Self.doneSteps(of: user.id, in: connection).subtracting(stepIDs)
            try Self.saveDoneSteps(steps, of: user.id, at: time, in: connection)
            guard resetDevices else { return }
            let names = Set(story.simulatorDevices + story.steps.compactMap { if case .simulator(let name) = $0.target { name } else { nil } })
            let devices = try connection.fetch(DeviceRecord.query().filter("name", in: names.sorted()))
            for device in devices {
                _ = try connection.execute("DELETE FROM simulator_events WHERE deviceID = \(device.id)")
                _ = try connection.execute("DELETE FROM simulator_states WHERE deviceID = \(device.id)")
            }
            try connection.audit(.demoStoryRestarted, subject: story.title, by: Actor(user), at: time)
        }
    }

    /// True the first time it is asked for `user` while the console shows the demo's
    /// stories, and never again.
    func claimFirstVisit(of user: RecordID<User>) async throws -> Bool {
        let time = now()
        return try await database.write { connection in
            guard try ConsoleSettings.load(from: connection).showsDemoStories else { return false }
            return try connection.execute("INSERT INTO tour_progress (userID, seenAt) VALUES (\(user), \(time)) ON CONFLICT DO NOTHING") == 1
        }
    }

    /// Writes a person's done steps (the first write also records that they have seen the tour).
    private static func saveDoneSteps(_ steps: Set<String>, of user: RecordID<User>, at time: Date, in connection: Connection) throws {
        let json = String(decoding: try JSONEncoder().encode(steps.sorted()), as: UTF8.self)
        _ = try connection.execute("""
            INSERT INTO tour_progress (userID, doneSteps, seenAt) VALUES (\(user), \(json), \(time))
            ON CONFLICT (userID) DO UPDATE SET doneSteps = excluded.doneSteps
            """)
    }

    static func doneSteps(of user: RecordID<User>, in connection: Connection) throws -> Set<String> {
        guard let row = try connection.fetch(Row.self, "SELECT doneSteps FROM tour_progress WHERE userID = \(user)").first else { return [] }
        return Set((try? JSONDecoder().decode([String].self, from: Data(row.doneSteps.utf8))) ?? [])
    }
}
