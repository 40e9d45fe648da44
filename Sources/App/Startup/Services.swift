import Domain
import Foundation
import Storage

/// The long-lived pieces every controller needs, built once at start-up.
struct Services: Sendable {
    let config: AppConfig
    let database: Database
    /// The log store's own file and writer (`LogSchema`).
    let logs: Database
    /// Wakes the indexer after an upload.
    let logIndexing: WakeSignal
    let logDecoding: LogUploadDecoding
    /// Uploads waiting for the log writer, committed together.
    let logWrites: LogGroupCommit
    let renderer: PageRenderer
    let cookies: CookieJar
    let sessions: SessionStore
    let hasher: PasswordHasher
    let accounts: AccountService
    let signing: SigningService
    let help: HelpLibrary
    /// Decoded profile versions, shared by every effective-policy computation.
    let profileContents: ProfileContentCache
    /// Check-in answers per group, for the device API's hot path.
    let checkIns: CheckInCache
    /// Devices by token, for the same path.
    let deviceTokens: DeviceTokenCache
    /// The groups, apps and settings every device page reads whole.
    let catalogCaches: CatalogCaches
    /// Wakes open event streams when a commit may concern their device.
    let liveChanges: LiveChanges
    /// Whether a load balancer should send this console work (`/readyz`).
    let readiness: Readiness
    /// The channels that wake a device when a command is queued for it register here.
    let commandWakeups = CommandWakeups()

    var catalog: CatalogService { CatalogService(database: database, logs: logs, now: config.now) }
    var catalogReader: CatalogReader { CatalogReader(database: database, logs: logs, profileContents: profileContents, caches: catalogCaches) }
    var appConfigSpecs: AppConfigSpecStore { AppConfigSpecStore(database: database, now: config.now) }
    var beacons: BeaconStore { BeaconStore(database: database, now: config.now) }
    var profileImporter: ProfileImporter { ProfileImporter(database: database, signing: signing, now: config.now) }
    var profiles: ProfileReader { ProfileReader(database: database, logs: logs, profileContents: profileContents) }
    var profileStore: ProfileStore { ProfileStore(database: database, now: config.now) }
    var assignments: AssignmentService { AssignmentService(database: database, now: config.now) }
    var auditLog: AuditLog { AuditLog(database: database) }
    var commands: CommandQueue { CommandQueue(database: database, now: config.now, wakeups: commandWakeups) }
    var signIns: SignInService { SignInService(database: database, hasher: hasher, sessions: sessions, throttle: SignInThrottle(), now: config.now) }

    var images: ImageStore { ImageStore(database: database, now: config.now) }
    var logReader: LogReader { LogReader(logs: logs, console: database) }
    var logStore: LogStore { LogStore(logs: logs, console: database, writes: logWrites, indexing: logIndexing, now: config.now) }
    var logRemoval: LogRemoval { LogRemoval(logs: logs, console: database, now: config.now) }
    var logRetention: LogRetention { LogRetention(removal: logRemoval, now: config.now) }
    var logIndexer: LogIndexer { LogIndexer(logs: logs) }
    var notes: NoteStore { NoteStore(database: database, now: config.now) }
    var tour: TourStore { TourStore(database: database, now: config.now) }
    var helpdeskReader: HelpdeskReader { HelpdeskReader(database: database, logs: logs) }
    var settings: SettingsStore { SettingsStore(database: database, logs: logs, now: config.now) }
    var simulatorReader: SimulatorReader { SimulatorReader(database: database, logs: logs) }
    var simulator: SimulatorService {
        SimulatorService(database: database, logStore: logStore, checkIns: checkIns, contents: profileContents, now: config.now)
    }

    var now: Date { config.now() }
}
