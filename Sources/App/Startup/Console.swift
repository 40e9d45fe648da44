import Domain
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import UnixSignals
import Storage

/// The assembled console: an application ready to serve, and what to tell the person who
/// started it (demo passwords, the first admin's one-time password).
public struct Console: Sendable {
    let application: Application<RouterResponder<AppRequestContext>>
    let services: Services
    /// Every route with the access it declares, for tests that sweep them all.
    let routes: [RouteEntry]
    /// The API operations registered from `APIEndpoint`s, which the API document describes.
    let operations: [DocumentedOperation]
    public let startupNotes: [String]
    let logger: Logger

    /// Serves until SIGINT or SIGTERM, then stops: `/readyz` answers 503 at once, the console
    /// goes on serving for `AppConfig.drainDelay`, then stops accepting connections and lets
    /// requests in flight finish.
    public func run() async throws {
        // The drain is last, so it hears of the signal first (services stop in reverse order).
        let group = ServiceGroup(configuration: .init(
            services: [application, DrainOnShutdown(readiness: services.readiness, delay: services.config.drainDelay, logger: logger)],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}

/// Templates every page needs, one form per payload kind among them; start-up fails without
/// them rather than a page failing later.
let requiredTemplates = ["layout", "error", "sign-in", "dashboard", "users", "account-password", "apps/index", "apps/edit", "groups/index", "groups/edit", "devices/index", "devices/show", "devices/form",
    "profiles/index", "profiles/show", "profiles/history", "profiles/conflict", "audit/index", "tokens/index"]
    + PayloadKind.allCases.map { "profiles/payloads/\($0.rawValue)" }

/// The lock consoles starting together on one PostgreSQL database take (`ServerLock`), so
/// migrations, the first admin and the demo data are made once.
let startupLockName = "payload-console.start"

/// Builds the whole console from a configuration: opens and migrates the database, prepares
/// accounts, loads templates and wires middleware and routes. Tests call this in-process.
public func buildConsole(config: AppConfig, logger: Logger = Logger(label: "payload-console")) async throws -> Console {
    if config.databasePath != ":memory:" {
        try FileManager.default.createDirectory(atPath: config.dataDirectory, withIntermediateDirectories: true)
    }
    let renderer = try await PageRenderer.load(directory: config.templatesDirectory, cookies: CookieJar(alwaysSecure: config.secureCookies), required: requiredTemplates,
                                              showsTour: config.demo)
    let help = try HelpLibrary.load(directory: config.helpDirectory)
    // Everything that writes what a second console starting at the same moment would write too.
    let (services, notes) = try await ServerLock.holding(startupLockName, on: try DatabaseLocation(config.databasePath), whileWaiting: {
        logger.notice("Another console is starting on this database; waiting for it to finish migrating")
    }) {
        try await prepareServices(config: config, renderer: renderer, help: help, logger: logger)
    }

    // HEAD answers wherever GET does, with the same headers and no body (HTTP requires it).
    let router = Router(context: AppRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: LogRequestsMiddleware(.info))
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: ErrorPageMiddleware(renderer: renderer))
    router.add(middleware: NULRefusalMiddleware())
    let table = RouteTable()
    router.add(middleware: MethodNotAllowedMiddleware(routes: table))
    registerRoutes(on: RouteGroups(router: router, table: table, services: services, logger: logger), services: services)

    let leases = JobLeases(database: services.database, instance: BackgroundJobs.instanceName, now: config.now)
    var background: [any Service] = [BackgroundJobs.sessionSweep(services.sessions, leases: leases, logger: logger),
                                     BackgroundJobs.logRetention(services.logRetention, leases: leases, logger: logger),
                                     BackgroundJobs.imageSweep(services.images, leases: leases, logger: logger),
                                     BackgroundJobs.mdmInventory(MDMInventoryRefresh(database: services.database, now: config.now), leases: leases, logger: logger)]
    background.append(MDMFeature.policyService(services: services, logger: logger))
    // On PostgreSQL each line's search vector is written with it: there is nothing to index.
    if config.indexesLogs && services.logs.dialect == .sqlite {
        background.append(LogIndexingService(indexer: services.logIndexer, signal: services.logIndexing, uploads: services.logWrites, gathering: .milliseconds(200), logger: logger))
    }
    let application = Application(
        router: router,
        configuration: .init(address: .hostname(config.host, port: config.port), serverName: "PayloadConsole"),
        // Started before the server, so stopped after it: no request is left to write.
        services: [DatabaseService(database: services.database, logger: logger), DatabaseService(database: services.logs, logger: logger)] + background,
        logger: logger)
    return Console(application: application, services: services, routes: table.entries, operations: table.operations, startupNotes: notes, logger: logger)
}

/// Opens and migrates both databases, prepares the accounts and builds the services (whose
/// caches install their change capture): the part of start-up that writes.
///
/// A console must start on a full disk — stopped by `kill -9` while the disk filled, its next
/// start has a write-ahead log to finish and bookkeeping to write — so that an admin can sign
/// in and free room. When start-up finds the disk full it gives up the room set aside
/// (`DiskReserve`) and starts again once.
private func prepareServices(config: AppConfig, renderer: PageRenderer, help: HelpLibrary, logger: Logger) async throws -> (Services, [String]) {
    do {
        return try await prepareServicesOnce(config: config, renderer: renderer, help: help, logger: logger)
    } catch StorageError.full {
        guard case .sqlite = try DatabaseLocation(config.databasePath) else { throw StorageError.full() }
        let paths = [config.databasePath, config.logDatabasePath ?? LogStoreFiles.logsPath(beside: config.databasePath)]
        let released = paths.filter { DiskReserve(path: Database.reservePath(beside: $0)).release() }
        guard !released.isEmpty else { throw StorageError.full() }
        logger.warning("The disk is full: starting with the room set aside for freeing room", metadata: ["released": "\(released)"])
        return try await prepareServicesOnce(config: config, renderer: renderer, help: help, logger: logger)
    }
}

private func prepareServicesOnce(config: AppConfig, renderer: PageRenderer, help: HelpLibrary, logger: Logger) async throws -> (Services, [String]) {
    let opened = try LogStoreFiles.open(consolePath: config.databasePath, logsPath: config.logDatabasePath)
    let (database, logs) = (opened.files.console, opened.files.logs)
    for file in [database, logs] {
        if let reserve = file.reserve, !reserve.hold() {
            logger.warning("The disk has no room to set aside for freeing room when it fills up", metadata: ["path": "\(reserve.path)"])
        }
    }
    for line in opened.applied {
        logger.info("\(line)")
    }
    try await LogDeviceReconciliation(logs: logs, console: database).run()

    let hasher = PasswordHasher(cost: config.bcryptCost)
    let notes = try await Bootstrap.prepareAccounts(config: config, database: database, logs: logs, hasher: hasher)
    let sessions = SessionStore(database: database, lifetime: config.sessionLifetime, now: config.now)
    let contents = ProfileContentCache()
    let services = Services(
        config: config, database: database, logs: logs, logIndexing: WakeSignal(), logDecoding: LogUploadDecoding(), logWrites: LogGroupCommit(), renderer: renderer, cookies: renderer.cookies, sessions: sessions,
        hasher: hasher, accounts: AccountService(database: database, hasher: hasher, now: config.now),
        signing: SigningService(database: database, dataDirectory: config.dataDirectory, now: config.now),
        help: help, profileContents: contents, checkIns: CheckInCache(contents: contents), deviceTokens: DeviceTokenCache(database: database),
        catalogCaches: CatalogCaches(database: database), liveChanges: LiveChanges(database: database),
        readiness: Readiness(probe: DatabaseProbe(try DatabaseLocation(config.databasePath)), logger: logger))
    try await services.signing.adoptFiles(logger: logger)
    return (services, notes)
}

/// Every route of the console, each controller on the group of the callers it serves.
func registerRoutes(on groups: RouteGroups, services: Services) {
    // Open to anyone whatever credentials they carry: the health and readiness checks and the API document.
    HealthController(readiness: services.readiness).register(on: groups.machines)
    OpenAPIDocument.register(on: groups.machines)

    let pages = groups.pages
    SignInController(services).register(on: pages)
    DashboardController(services).register(on: pages)
    UsersController(services).register(on: pages)
    AccountController(services).register(on: pages)
    AppsController(services).register(on: pages)
    GroupsController(services).register(on: pages)
    DeviceListController(services).register(on: pages)
    DevicesController(services).register(on: pages)
    DeviceNotesController(services).register(on: pages)
    DeviceLiveController(services).register(on: pages)
    FeedbackController(services).register(on: pages)
    AuditLogController(services).register(on: pages)
    ProfilesController(services).register(on: pages)
    ProfileHistoryController(services).register(on: pages)
    PayloadFormsController(services).register(on: pages)
    ProfileExportController(services).register(on: pages)
    TokensController(services).register(on: pages)
    ImagesController(services).register(on: pages)
    SigningIdentityController(services).register(on: pages)
    SimulatorController(services).register(on: pages)
    LogsController(services).register(on: pages)
    CrashGroupsController(services).register(on: pages)
    LogSelectionController(services).register(on: pages)
    SettingsController(services).register(on: pages)
    HelpController(services).register(on: pages)
    TourController(services).register(on: pages)
    AssignmentPreviewController(services).register(on: pages)
    CommandsFeature.register(on: groups, services: services)
    MDMFeature.register(on: groups, services: services)

    ProfilesAPIController(services).register(on: groups.api)
    ImportAPIController(services).register(on: groups.api)
    CatalogAPIController(services).register(on: groups.api)
    SimulatorAPIController(services).register(on: groups.api)
    LogsAPIController(services).register(on: groups.api)
    HelpdeskAPIController(services).register(on: groups.api)

    DeviceAPIController(services).register(on: groups.devices)
}
