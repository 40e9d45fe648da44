import Domain
import Foundation
import Storage

/// The long-lived pieces every controller needs, built once at start-up.
struct Services: Sendable {
    let config: AppConfig
    let database: Database
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

    var catalog: CatalogService { CatalogService(database: database, now: config.now) }
    var catalogReader: CatalogReader { CatalogReader(database: database, profileContents: profileContents) }
    var appConfigSpecs: AppConfigSpecStore { AppConfigSpecStore(database: database, now: config.now) }
    var beacons: BeaconStore { BeaconStore(database: database, now: config.now) }
    var profileImporter: ProfileImporter { ProfileImporter(database: database, signing: signing, now: config.now) }
    var profiles: ProfileReader { ProfileReader(database: database, profileContents: profileContents) }
    var profileStore: ProfileStore { ProfileStore(database: database, now: config.now) }
    var assignments: AssignmentService { AssignmentService(database: database, now: config.now) }
    var auditLog: AuditLog { AuditLog(database: database, now: config.now) }
    var deviceChannel: DeviceChannelService { DeviceChannelService(database: database, now: config.now) }
    var signIns: SignInService { SignInService(database: database, hasher: hasher, sessions: sessions, throttle: SignInThrottle(), now: config.now) }

    var images: ImageStore { ImageStore(database: database, now: config.now) }
    var logReader: LogReader { LogReader(database: database) }
    var logStore: LogStore { LogStore(database: database, now: config.now) }
    var logRemoval: LogRemoval { LogRemoval(database: database, now: config.now) }
    var logRetention: LogRetention { LogRetention(database: database, now: config.now) }
    var notes: NoteStore { NoteStore(database: database, now: config.now) }
    var tour: TourStore { TourStore(database: database, now: config.now) }
    var helpdeskReader: HelpdeskReader { HelpdeskReader(database: database) }
    var settings: SettingsStore { SettingsStore(database: database, now: config.now) }
    var simulatorReader: SimulatorReader { SimulatorReader(database: database) }
    var simulator: SimulatorService {
        SimulatorService(database: database, checkIns: checkIns, contents: profileContents, now: config.now)
    }

    var now: Date { config.now() }
}
