import Hummingbird
import Logging

/// The console's callers, each reached through a route group with its own middleware rather
/// than middleware that tests the path: people in a browser (session cookie, CSRF, form
/// bodies), scripts (API token), devices (device token), and machines that need none of these
/// (the health check). Static files are served only under their own folders.
struct RouteGroups {
    let pages: SecuredRoutes
    let api: SecuredRoutes
    let devices: DeviceRoutes
    /// Real devices over Apple's MDM protocol, under `/mdm/`.
    let mdm: MDMRoutes
    let machines: SecuredRoutes
    /// For what a feature does in the background (MDM's pushes).
    let logger: Logger

    init(router: Router<AppRequestContext>, table: RouteTable, services: Services, logger: Logger) {
        let pageGroup = router.group()
        pageGroup.add(middleware: SessionMiddleware(sessions: services.sessions, cookies: services.cookies))
        pageGroup.add(middleware: CSRFMiddleware())
        pages = SecuredRoutes(pageGroup, table: table)

        let apiGroup = router.group()
        apiGroup.add(middleware: APITokenMiddleware(tokens: APITokenStore(database: services.database, now: services.config.now)))
        api = SecuredRoutes(apiGroup, table: table)

        let deviceGroup = router.group()
        deviceGroup.add(middleware: DeviceTokenMiddleware(devices: services.deviceTokens))
        devices = DeviceRoutes(deviceGroup.group(context: DeviceRequestContext.self), table: table)

        mdm = MDMRoutes(router: router, table: table)
        self.logger = logger
        machines = SecuredRoutes(router.group(), table: table)

        // The file lookup runs for these folders only, not for every request that reaches no route.
        let assets = router.group()
        assets.add(middleware: FileMiddleware(services.config.publicDirectory, searchForIndexHtml: false, logger: logger))
        for folder in ["/css/**", "/js/**"] {
            assets.get(RouterPath(folder)) { _, _ -> Response in throw HTTPError(.notFound) }
        }
    }
}
