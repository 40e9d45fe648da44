import Foundation

/// The dashboard's recent activity as people read it: newest first, sign-ins and sign-outs
/// left out (the audit log keeps them), and a run of the same change by the same person
/// within an hour on one line — "added 12 devices: Lobby kiosk 01, Lobby kiosk 02, Lobby
/// kiosk 03 and 9 more".
enum ActivityFeed {
    struct Entry: Equatable, Sendable {
        let time: String
        let isoTime: String
        let actor: String
        let action: String
        let subject: String
    }

    /// Actions the feed leaves out.
    static let hidden: [AuditAction] = [.userSignedIn, .userSignedOut]
    /// How many subjects a grouped line names before "and N more".
    static let named = 3

    static func entries(_ events: [AuditEvent], now: Date, limit: Int) -> [Entry] {
        var runs: [[AuditEvent]] = []
        for event in events where !hidden.contains(where: { $0.rawValue == event.action }) {
            if let first = runs.last?.first, first.actorEmail == event.actorEmail, first.action == event.action,
               first.occurredAt.timeIntervalSince(event.occurredAt) < 3600 {
                runs[runs.count - 1].append(event)
            } else {
                guard runs.count < limit else { break }
                runs.append([event])
            }
        }
        return runs.map { run in
            let newest = run[0]
            // Each subject once, newest first: five saves of one profile name it once.
            var seen: Set<String> = []
            let subjects = run.map { $0.subject == $0.actorEmail ? "" : $0.subject }.filter { !$0.isEmpty && seen.insert($0).inserted }
            let wording = newest.wording
            let subject: String
            if subjects.count <= 1 {
                subject = subjects.first ?? ""
            } else {
                let shown = subjects.prefix(named).joined(separator: ", ")
                subject = subjects.count > named ? "\(shown) and \(subjects.count - named) more" : shown
            }
            return Entry(time: DisplayTime.relative(newest.occurredAt, now: now), isoTime: DisplayTime.iso(newest.occurredAt),
                         actor: newest.actorEmail, action: run.count == 1 ? wording : plural(wording, run.count) + (subject.isEmpty || wording.hasSuffix(":") ? "" : ":"),
                         subject: subject)
        }
    }

    /// "added the device" twelve times reads "added 12 devices"; "saved a new version of",
    /// "saved 3 new versions of"; wording without a countable object gets "(12 times)".
    static func plural(_ wording: String, _ count: Int) -> String {
        let words = wording.split(separator: " ").map(String.init)
        let prepositions: Set = ["of", "for", "on", "with"]
        guard let last = words.last else { return wording }
        if let article = words.lastIndex(of: "the"), !prepositions.contains(last), !last.hasSuffix(":") {
            return (words[..<article] + ["\(count)"] + words[(article + 1)...].dropLast() + [last + "s"]).joined(separator: " ")
        }
        if let article = words.firstIndex(of: "a"), prepositions.contains(last), article + 1 < words.count - 1 {
            let noun = words[(article + 1)..<(words.count - 1)]
            return (words[..<article] + ["\(count)"] + noun.dropLast() + [noun.last! + "s", last]).joined(separator: " ")
        }
        return wording + " (\(count) times)"
    }
}
