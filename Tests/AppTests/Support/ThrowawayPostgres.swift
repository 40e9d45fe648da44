import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A PostgreSQL server of a test's own (`scripts/throwaway-postgres`), for tests that stop and
/// start the server under a running console — the shared test server cannot be stopped.
final class ThrowawayPostgres: Sendable {
    let folder: String
    /// `--db` for the server, e.g. `postgresql:///postgres?host=/tmp/…&user=pc`.
    let url: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pc-outage-\(UUID().uuidString.prefix(8))").path
        url = try Self.script("start", folder)
    }

    func stop() throws {
        _ = try Self.script("stop", folder)
    }

    func start() throws {
        _ = try Self.script("start", folder)
    }

    func remove() {
        _ = try? Self.script("remove", folder)
    }

    /// Runs the script and answers what it printed; throws with its error output when it fails.
    /// Spawned with every descriptor but its output files closed: Foundation's `Process` watches
    /// a child through a socket the child inherits, and the server the script starts in the
    /// background would inherit and hold it, so `waitUntilExit` would never return.
    private static func script(_ action: String, _ folder: String) throws -> String {
        let outputs = FileManager.default.temporaryDirectory.appendingPathComponent("pc-script-\(UUID().uuidString)").path
        let printed = outputs + ".out", complained = outputs + ".err"
        defer {
            try? FileManager.default.removeItem(atPath: printed)
            try? FileManager.default.removeItem(atPath: complained)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, printed, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, complained, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.compactMap(Int32.init) ?? []
        for descriptor in open where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        let arguments = ["/bin/bash", TestConsole.packageRoot.appendingPathComponent("scripts/throwaway-postgres").path, action, folder]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/bash", &actions, nil, &argv, environ)
        guard spawned == 0 else { throw ScriptFailed(message: "cannot run throwaway-postgres: error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else {
            throw ScriptFailed(message: "throwaway-postgres \(action) failed: " + ((try? String(contentsOfFile: complained, encoding: .utf8)) ?? ""))
        }
        return ((try? String(contentsOfFile: printed, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct ScriptFailed: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
