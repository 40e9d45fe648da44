import Domain
import Foundation
import Storage

/// What a device's check-in message does to the console's records, once its signature has
/// named a certificate the console's authority issued (`serial`).
///
/// Authenticate binds the certificate to the device the message names — matched by UDID, or
/// by serial number for a device enrolled before under another UDID, so history, logs and
/// notes stay with it — and queues the inventory commands; TokenUpdate keeps the push token;
/// CheckOut marks the device unenrolled and revokes its certificate, deleting nothing.
struct MDMCheckIns: Sendable {
    let database: Database
    let now: @Sendable () -> Date

    /// Why a check-in was refused: each is a 401 or 403 to the device and a line in the log.
    enum Refusal: Error, Equatable {
        /// The certificate was not issued by this console, or was revoked.
        case unknownCertificate
        case revokedCertificate
        /// The certificate belongs to another device than the message names.
        case anotherDevicesCertificate
        /// TokenUpdate or CheckOut from a device that never authenticated with this certificate.
        case notAuthenticated
    }

    /// Answers the device record the message concerns.
    @discardableResult
    func handle(_ message: CheckInMessage, signedBy serial: String) async throws -> RecordID<DeviceRecord>? {
        let time = now()
        return try await database.write { connection in
            switch message {
            case .authenticate(let authenticate):
                return try self.authenticate(authenticate, serial: serial, at: time, connection: connection)
            case .tokenUpdate(let update):
                var enrolled = try self.enrolled(update.enrollment, serial: serial, connection: connection)
                enrolled.pushToken = Data(update.token)
                enrolled.pushMagic = update.pushMagic
                if let unlock = update.unlockToken { enrolled.unlockToken = Data(unlock) }
                enrolled.topic = update.topic
                enrolled.tokenUpdatedAt = time
                enrolled.lastSeenAt = time
                enrolled.pushTokenDeadAt = nil
                enrolled.pushTokenDeadReason = nil
                try connection.update(enrolled)
                return enrolled.deviceID
            case .checkOut(_, let enrollment):
                var enrolled = try self.enrolled(enrollment, serial: serial, connection: connection)
                enrolled.state = .unenrolled
                enrolled.checkedOutAt = time
                enrolled.lastSeenAt = time
                try connection.update(enrolled)
                try revokeCertificates(of: enrolled.deviceID, at: time, connection: connection)
                try MDMPolicyReports.forgetInstalled(of: enrolled.deviceID, connection: connection)
                let device = try connection.require(DeviceRecord.self, id: enrolled.deviceID)
                try connection.audit(.deviceUnenrolled, subject: device.name, by: .system, after: "removed the MDM profile (CheckOut)", at: time)
                return enrolled.deviceID
            case .unsupported:
                return nil
            }
        }
    }

    private func authenticate(_ message: CheckInMessage.Authenticate, serial: String, at time: Date, connection: Connection) throws -> RecordID<DeviceRecord> {
        guard case .device(let udid) = message.enrollment else { throw Refusal.notAuthenticated }
        guard var certificate = try connection.fetchOne(MDMCertificateRecord.query().filter("serial", .equal, serial)) else {
            throw Refusal.unknownCertificate
        }
        guard certificate.revokedAt == nil else { throw Refusal.revokedCertificate }
        let udidKey = udid.uppercased()
        let serialNumber = message.serialNumber?.uppercased()
        var device = try connection.fetchOne(DeviceRecord.query().filter("udid", .equal, udidKey))
        if device == nil, let serialNumber, !serialNumber.isEmpty {
            device = try connection.fetchOne(DeviceRecord.query().filter("serialNumber", .equal, serialNumber))
        }
        if let bound = certificate.deviceID, bound != device?.id { throw Refusal.anotherDevicesCertificate }
        let record: DeviceRecord
        if var existing = device {
            // Enrolling again: the record, its history, logs and notes stay; it joins the link's group.
            existing.udid = udidKey
            if let group = certificate.groupID { existing.groupID = group }
            if let version = message.osVersion { existing.osVersion = version }
            try connection.update(existing)
            record = existing
        } else {
            record = try connection.insert(DeviceRecord(
                name: Self.name(product: message.productName, serial: serialNumber), model: Self.model(message.productName),
                osVersion: message.osVersion ?? "", serialNumber: serialNumber ?? "", udid: udidKey, isSupervised: false, owner: "",
                groupID: certificate.groupID, installedApps: [], enrolledAt: time, lastCheckInAt: time))
        }
        try revokeCertificates(of: record.id, except: serial, at: time, connection: connection)
        certificate.deviceID = record.id
        try connection.update(certificate)
        var enrolled = try connection.fetchOne(MDMDeviceRecord.query().filter("deviceID", .equal, record.id))
            ?? MDMDeviceRecord(deviceID: record.id, udid: udidKey, state: .enrolled, topic: message.topic, enrolledAt: time, notNowRun: [])
        enrolled.udid = udidKey
        enrolled.state = .enrolled
        enrolled.topic = message.topic
        enrolled.certificateSerial = serial
        enrolled.enrolledAt = time
        enrolled.checkedOutAt = nil
        enrolled.releaseRequestedAt = nil
        enrolled.lastSeenAt = time
        enrolled.notNowRun = []
        if enrolled.id == .unsaved { _ = try connection.insert(enrolled) } else { try connection.update(enrolled) }
        try MDMPolicyReports.forgetInstalled(of: record.id, connection: connection)
        try MDMInventoryRefresh.queue(for: record.id, at: time, connection: connection)
        try connection.audit(.deviceEnrolled, subject: record.name, by: .system,
                             after: "\(record.auditSummary), over MDM (certificate \(serial.prefix(16)))", at: time)
        return record.id
    }

    /// The device a TokenUpdate or CheckOut names, which must have authenticated with this certificate.
    private func enrolled(_ enrollment: MDMEnrollmentID, serial: String, connection: Connection) throws -> MDMDeviceRecord {
        guard case .device(let udid) = enrollment,
              let enrolled = try connection.fetchOne(MDMDeviceRecord.query().filter("udid", .equal, udid.uppercased())) else {
            throw Refusal.notAuthenticated
        }
        guard enrolled.certificateSerial == serial else { throw Refusal.anotherDevicesCertificate }
        return enrolled
    }

    private func revokeCertificates(of deviceID: RecordID<DeviceRecord>, except kept: String? = nil, at time: Date, connection: Connection) throws {
        for var certificate in try connection.fetch(MDMCertificateRecord.query().filter("deviceID", .equal, deviceID))
        where certificate.revokedAt == nil && certificate.serial != kept {
            certificate.revokedAt = time
            try connection.update(certificate)
        }
    }

    /// "iPad (F9FXK1)" until the device reports its name.
    static func name(product: String?, serial: String?) -> String {
        let kind = model(product).rawValue
        guard let serial, !serial.isEmpty else { return kind }
        return "\(kind) (\(serial))"
    }

    static func model(_ product: String?) -> DeviceModel {
        product?.hasPrefix("iPhone") == true ? .iPhone : .iPad
    }
}
