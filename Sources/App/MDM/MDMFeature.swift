import Logging
import Push
import Storage

/// Real devices over Apple's MDM protocol: the endpoints devices talk to under `/mdm/`
/// (check-in, command, SCEP, the enrollment link) and the admin's API for enrollment links
/// and the push certificate. Built here from the services start-up made, registered in one
/// line.
enum MDMFeature {
    static func register(on groups: RouteGroups, services: Services) {
        let now = services.config.now
        let authority = DeviceAuthorityStore(database: services.database, now: now)
        let links = EnrollmentLinks(database: services.database, now: now)
        let pushCertificates = PushCertificateStore(database: services.database, now: now)
        let baseURL = services.config.deviceBaseURL

        MDMController(identity: MDMIdentity(authority: authority, database: services.database, now: now),
                      checkIns: MDMCheckIns(database: services.database, now: now),
                      exchange: MDMCommandExchange(database: services.database, now: now, contents: services.profileContents))
            .register(on: groups.mdm)
        SCEPController(authority: authority, links: links, now: now).register(on: groups.mdm)
        EnrollmentController(links: links, pushCertificates: pushCertificates, signing: services.signing, renderer: services.renderer,
                             deviceBaseURL: baseURL)
            .register(on: groups.mdm)
        EnrollmentPageController(links: links, pushCertificates: pushCertificates, authority: authority, deviceBaseURL: baseURL,
                                 cookies: services.cookies, renderer: services.renderer, now: now)
            .register(on: groups.pages)
        MDMAPIController(links: links, pushCertificates: pushCertificates, authority: authority, deviceBaseURL: baseURL).register(on: groups.api)
        MDMReleaseController(release: MDMRelease(database: services.database, now: now, wakeups: services.commandWakeups), cookies: services.cookies)
            .register(pages: groups.pages, api: groups.api)

        let pushes = MDMPushDispatcher(database: services.database, client: PushClient(baseURL: services.config.apnsURL),
                                       trustRootsPEM: services.config.apnsTrustRootsPEM, logger: groups.logger, now: now)
        services.commandWakeups.add { devices in pushes.wake(devices) }
    }

    /// Keeps real devices' profiles in line with their effective policy, in the background.
    static func policyService(services: Services, logger: Logger) -> MDMPolicyService {
        let signal = WakeSignal()
        services.database.onCommit(tables: MDMPolicyService.tables) { _ in signal.wake() }
        return MDMPolicyService(sync: policySync(services), signal: signal, logger: logger)
    }

    static func policySync(_ services: Services) -> MDMPolicySync {
        MDMPolicySync(database: services.database, signing: services.signing, contents: services.profileContents, now: services.config.now,
                      wakeups: services.commandWakeups)
    }
}
