import NIOCore
import Synchronization

/// The open connection to the push service for the push certificate in use, shared by every
/// push: the first push opens it, pushes meanwhile wait for the same opening, and a push that
/// finds it closed opens another. The console pushes with one certificate at a time, so a
/// connection for a certificate replaced since is closed when the new one opens.
final class PushConnections: Sendable {
    private let endpoint: PushEndpoint?
    private let group: any EventLoopGroup
    private let opening = Mutex<(fingerprint: String, connection: Task<PushConnection, any Error>)?>(nil)

    init(endpoint: PushEndpoint?, group: any EventLoopGroup) {
        self.endpoint = endpoint
        self.group = group
    }

    enum Failure: Error, CustomStringConvertible {
        case notAnHTTPSAddress
        var description: String { "the push service's address is not an https:// address" }
    }

    func send(path: String, headers: [(String, String)], body: ByteBuffer, identity: PushIdentity, timeout: TimeAmount) async throws -> PushConnection.Answer {
        let connection = try await open(for: identity)
        return try await connection.send(path: path, headers: headers, body: body, timeout: timeout)
    }

    /// A connection that closed between opening and use is opened once more, not again and again.
    private func open(for identity: PushIdentity, again: Bool = true) async throws -> PushConnection {
        guard let endpoint else { throw Failure.notAnHTTPSAddress }
        let (task, replaced) = opening.withLock { current -> (Task<PushConnection, any Error>, Task<PushConnection, any Error>?) in
            if let current, current.fingerprint == identity.fingerprint { return (current.connection, nil) }
            let task = Task { try await PushConnection.connect(to: endpoint, tls: identity.tls, on: group) }
            defer { current = (identity.fingerprint, task) }
            return (task, current?.connection)
        }
        if let replaced { Task { try? await replaced.value.close() } }
        do {
            let connection = try await task.value
            if connection.isOpen { return connection }
        } catch {
            forget(task)
            throw error
        }
        forget(task)
        guard again else { throw PushConnection.Failure.closedBeforeAnswer }
        return try await open(for: identity, again: false)
    }

    /// Drops `task` if it is still the current connection, so the next push opens another.
    private func forget(_ task: Task<PushConnection, any Error>) {
        opening.withLock { current in
            if current?.connection == task { current = nil }
        }
    }
}
