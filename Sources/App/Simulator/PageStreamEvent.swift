/// What an open page's event stream (the device page's, the simulator page's) tells it:
/// something it shows may have changed — data is a mark of the new state, which the page
/// compares with its own — or the device is gone.
enum PageStreamEvent: StreamedEvent {
    case changed(mark: String)
    case gone

    static let streamDescription = """
        `event: changed` with a mark of the new state whenever what the page shows may have changed; \
        `event: gone` (data: removed) when the device is removed.
        """

    var name: String {
        switch self {
        case .changed: "changed"
        case .gone: "gone"
        }
    }

    var id: String? { nil }

    func data() throws -> String {
        switch self {
        case .changed(let mark): mark
        case .gone: "removed"
        }
    }
}
