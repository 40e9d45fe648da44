import App
import ArgumentParser
import Domain
import Foundation
import Signing
import Storage

/// Devices enrolled over MDM for `Benchmarks/mdm.sh`: the console's CA, one identity
/// certificate per device (all for one key, which the script made: issuing is what SCEP does,
/// making 10,000 RSA keys is not the console's work), each device's MDM row with a push token,
/// and one command queued for each (the push that woke it is not the measure here). Writes the
/// requests the load tool plays, each signed by its device as an MDM client signs (detached
/// CMS over the exact body): `idle.txt` (Idle: a woken device asking for its command, and later
/// nothing waiting) and `reports.txt` (Acknowledged for that command: the report, and the
/// console's "what next"). Lines are "signature<TAB>body".
struct SeedMDM: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "seed-mdm", abstract: "Enroll devices over MDM directly in the database, and sign their messages.")

    @OptionGroup var database: PayloadConsoleBench.DatabaseOption
    @Option var devices = 10_000
    @Option(help: "A DER certificate request for the devices' shared key.")
    var csr: String
    @Option(help: "That key, PEM.")
    var key: String
    @Option(help: "Where to write reports.txt, idle.txt and identities.txt.")
    var out: String
    @Option(help: "How many of the devices (the first) get a real certificate and signed messages; the others only push tokens.")
    var signed: Int?
    @Flag(name: .customLong("command"), inversion: .prefixedNo, help: "Queue one RestartDevice for each signed device.")
    var queuesCommand = true

    func run() async throws {
        let started = Date()
        let database = try LogStoreFiles.open(consolePath: database.path).files.console
        let authority = try CertificateAuthority.generate(commonName: "Bench Device CA", organisation: "Bench")
        let request = try CertificateRequest(der: Array(try Data(contentsOf: URL(fileURLWithPath: csr))))
        let keyPEM = try String(contentsOfFile: key, encoding: .utf8)
        let now = Date()
        // Answered today: the daily inventory job leaves these devices alone.
        var inventory = MDMInventory()
        inventory.updatedAt = now
        let inventoryJSON = String(decoding: try Self.encoder.encode(inventory), as: UTF8.self)
        var reports: [String] = [], idles: [String] = []
        var rows: [(serial: String, fingerprint: String, udid: String, commandUUID: String?)] = []
        var identities: [String] = []
        for index in 0..<devices {
            let udid = String(format: "BENCH-MDM-%08d", index)
            guard index < signed ?? devices else {
                // Pushed to, never heard from: no certificate to issue or sign with.
                rows.append((String(format: "BENCH-UNSIGNED-%08d", index), String(format: "bench-unsigned-%08d", index), udid, nil))
                continue
            }
            let issued = try authority.issue(request, subjectCommonName: "Bench device", now: now)
            let identity = try SigningIdentity(certificatePEM: Self.pem(issued.der), privateKeyPEM: keyPEM)
            let commandUUID = UUID().uuidString
            let report = Self.plist(["Status": "Acknowledged", "CommandUUID": commandUUID, "UDID": udid])
            let idle = Self.plist(["Status": "Idle", "UDID": udid])
            if queuesCommand { reports.append(Self.line(try ProfileSigner.sign(Array(report.utf8), with: identity, detached: true), report)) }
            idles.append(Self.line(try ProfileSigner.sign(Array(idle.utf8), with: identity, detached: true), idle))
            identities.append(udid + "\t" + Data(issued.der).base64EncodedString())
            rows.append((issued.serialHex, issued.sha256Fingerprint, udid, queuesCommand ? commandUUID : nil))
        }
        try await database.write { connection in
            try connection.execute("""
                INSERT INTO mdm_authority (id, certificatePEM, privateKeyPEM, origin, setBy, setAt)
                VALUES (1, \(authority.certificatePEM), \(authority.privateKeyPEM), 'generated', 'bench', \(now))
                ON CONFLICT (id) DO UPDATE SET certificatePEM = excluded.certificatePEM, privateKeyPEM = excluded.privateKeyPEM
                """)
            let group = try connection.insert(DeviceGroupRecord(name: "Bench MDM \(Int(now.timeIntervalSince1970))", parentID: nil, createdAt: now))
            for (index, row) in rows.enumerated() {
                let device = try connection.insert(DeviceRecord(
                    name: String(format: "Bench MDM device %05d", index), model: .iPad, osVersion: "18.1",
                    serialNumber: String(format: "BMDM%07d", index), udid: row.udid, isSupervised: true, owner: "", groupID: group.id,
                    installedApps: [], enrolledAt: now, lastCheckInAt: now))
                try connection.execute("""
                    INSERT INTO mdm_certificates (serial, fingerprint, groupID, deviceID, subject, issuedAt, notAfter)
                    VALUES (\(row.serial), \(row.fingerprint), \(group.id), \(device.id), 'CN=Bench device', \(now), \(now.addingTimeInterval(86_400 * 365)))
                    """)
                try connection.execute("""
                    INSERT INTO mdm_devices (deviceID, udid, state, topic, certificateSerial, pushToken, pushMagic, enrolledAt, lastSeenAt, notNowRun, inventory)
                    VALUES (\(device.id), \(row.udid), 'enrolled', 'com.apple.mgmt.External.bench', \(row.serial),
                            \(Data((0..<32).map { _ in UInt8.random(in: 0...255) })), \(UUID().uuidString), \(now), \(now), '[]', \(inventoryJSON))
                    """)
                guard let commandUUID = row.commandUUID else { continue }
                try connection.execute("""
                    INSERT INTO device_commands (uuid, deviceID, requestType, parameters, status, queuedAt, queuedBy, notNowCount, resultSummary)
                    VALUES (\(commandUUID), \(device.id), 'RestartDevice', '{}', 'queued', \(now), 'bench', 0, '')
                    """)
            }
        }
        try (reports.joined(separator: "\n") + "\n").write(toFile: out + "/reports.txt", atomically: true, encoding: .utf8)
        try (idles.joined(separator: "\n") + "\n").write(toFile: out + "/idle.txt", atomically: true, encoding: .utf8)
        try (identities.joined(separator: "\n") + "\n").write(toFile: out + "/identities.txt", atomically: true, encoding: .utf8)
        print(String(format: "enrolled %d devices over MDM (%d with a certificate and signed messages%@) in %.1f s", devices, signed ?? devices,
                     queuesCommand ? ", a command queued for each" : "", Date().timeIntervalSince(started)))
    }

    /// As the console's storage writes a JSON column.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    /// A one-line XML property list of strings: what the load tool sends as it is.
    static func plist(_ values: KeyValuePairs<String, String>) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><dict>"
            + values.map { "<key>\($0.key)</key><string>\($0.value)</string>" }.joined() + "</dict></plist>"
    }

    static func line(_ signature: [UInt8], _ body: String) -> String {
        Data(signature).base64EncodedString() + "\t" + body
    }

    static func pem(_ der: [UInt8]) -> String {
        let base64 = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN CERTIFICATE-----\n\(base64)\n-----END CERTIFICATE-----\n"
    }
}

/// The reports `Benchmarks/mdm-policy.sh` plays once the console has queued its own commands:
/// for each device seed-mdm gave a certificate (`identities.txt`), Acknowledged for the oldest
/// waiting command of one type, signed as the device signs.
struct SignMDMReports: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sign-mdm-reports", abstract: "Sign devices' reports on the commands the console queued.")

    @OptionGroup var database: PayloadConsoleBench.DatabaseOption
    @Option(help: "seed-mdm's identities.txt.")
    var identities: String
    @Option(help: "The devices' key, PEM.")
    var key: String
    @Option(help: "The command's RequestType.")
    var requestType = "InstallProfile"
    @Option(help: "Where to write reports.txt.")
    var out: String

    private struct Waiting: Codable {
        let udid: String
        let uuid: String
    }

    func run() async throws {
        let database = try LogStoreFiles.open(consolePath: database.path).files.console
        let keyPEM = try String(contentsOfFile: key, encoding: .utf8)
        let waiting = try await database.read { connection in
            try connection.fetch(Waiting.self, """
                SELECT d.udid, c.uuid FROM device_commands c JOIN devices d ON d.id = c.deviceID
                WHERE c.requestType = \(requestType) AND c.status IN ('queued', 'sent') ORDER BY c.id
                """)
        }
        var commands: [String: String] = [:]
        for command in waiting where commands[command.udid] == nil { commands[command.udid] = command.uuid }
        var reports: [String] = []
        for line in try String(contentsOfFile: identities, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: "\t")
            guard parts.count == 2, let uuid = commands[String(parts[0])], let der = Data(base64Encoded: String(parts[1])) else { continue }
            let identity = try SigningIdentity(certificatePEM: SeedMDM.pem(Array(der)), privateKeyPEM: keyPEM)
            let report = SeedMDM.plist(["Status": "Acknowledged", "CommandUUID": uuid, "UDID": String(parts[0])])
            reports.append(SeedMDM.line(try ProfileSigner.sign(Array(report.utf8), with: identity, detached: true), report))
        }
        try (reports.joined(separator: "\n") + "\n").write(toFile: out + "/reports.txt", atomically: true, encoding: .utf8)
        print("signed \(reports.count) reports on \(requestType)")
    }
}
