import HTTPTypes
import Synchronization

/// Every route the console serves, with the access it declares, filled in as controllers
/// register: for the 405 answer (which methods a path takes) and for tests that sweep every
/// route.
final class RouteTable: Sendable {
    private struct Entry {
        let route: RouteEntry
        let segments: [Substring]
    }

    private let rows = Mutex<[Entry]>([])
    private let documented = Mutex<[DocumentedOperation]>([])

    /// Records what the API document says of an API route registered from an `APIEndpoint`.
    func document(_ operation: DocumentedOperation) {
        documented.withLock { $0.append(operation) }
    }

    var operations: [DocumentedOperation] { documented.withLock { $0 } }

    func add(_ route: RouteEntry) {
        rows.withLock { $0.append(Entry(route: route, segments: route.path.split(separator: "/"))) }
    }

    var entries: [RouteEntry] { rows.withLock { $0.map(\.route) } }

    /// The methods routes matching `path` accept (`{name}` segments match any one segment).
    func methods(for path: String) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/")
        return rows.withLock { rows in
            rows.filter { row in
                row.segments.count == segments.count
                    && zip(row.segments, segments).allSatisfy { pattern, segment in pattern.first == "{" || pattern == segment }
            }.map(\.route.method)
        }
    }
}
