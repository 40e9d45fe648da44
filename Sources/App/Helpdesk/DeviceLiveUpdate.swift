import Foundation

/// What `/devices/{id}/live` answers the open device page: the log lines that arrived after
/// the newest one it shows, as table rows to put on top, and where its commands stand.
struct DeviceLiveUpdate: APIAnswer {
    /// The new rows' HTML, as the page's table renders them (our own escaped markup).
    let rows: String
    let added: Int
    let commands: [Command]
    /// The newest line's id, for the next `after`; "0" while there is none.
    let newest: String

    /// A command as the page's command table shows it.
    struct Command: Codable, Sendable {
        let uuid: String
        let name: String
        let status: String
        let statusName: String
        let queued: String
        let queuedBy: String
        let answer: String
        /// Whether the reader may still take it back; the page drops the Cancel button when not.
        let cancellable: Bool

        init(_ row: DeviceCommandsView.Row) {
            uuid = row.uuid
            name = row.name
            status = row.status
            statusName = row.statusName
            queued = row.queued
            queuedBy = row.queuedBy
            answer = row.result
            cancellable = row.cancelPath != nil
        }
    }
}
