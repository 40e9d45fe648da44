import Domain
import Foundation
import Storage

// Each controller is built with what it uses, read from the services built at start-up:
// the one place that knows where each dependency comes from.

extension TourController {
    init(_ services: Services) {
        self.init(tour: services.tour,
                  renderer: services.renderer, cookies: services.cookies)
    }
}

extension DeviceListController {
    init(_ services: Services) {
        self.init(now: services.config.now,
                  catalogReader: services.catalogReader,
                  renderer: services.renderer,
                  cookies: services.cookies,
                  catalog: services.catalog,
                  commands: services.commands)
    }
}

extension DevicesController {
    init(_ services: Services) {
        self.init(catalogReader: services.catalogReader,
                  now: services.config.now,
                  renderer: services.renderer,
                  catalog: services.catalog,
                  cookies: services.cookies)
    }
}

extension AppsController {
    init(_ services: Services) {
        self.init(catalogReader: services.catalogReader,
                  renderer: services.renderer,
                  appConfigSpecs: services.appConfigSpecs,
                  now: services.config.now,
                  cookies: services.cookies,
                  catalog: services.catalog)
    }
}

extension GroupsController {
    init(_ services: Services) {
        self.init(catalogReader: services.catalogReader,
                  renderer: services.renderer,
                  catalog: services.catalog,
                  cookies: services.cookies)
    }
}

extension SettingsController {
    init(_ services: Services) {
        self.init(settings: services.settings,
                  now: services.config.now,
                  renderer: services.renderer,
                  cookies: services.cookies,
                  logRetention: services.logRetention)
    }
}

extension DeviceNotesController {
    init(_ services: Services) {
        self.init(helpdeskReader: services.helpdeskReader,
                  notes: services.notes,
                  cookies: services.cookies,
                  renderer: services.renderer,
                  devicePage: DevicesController(services))
    }
}

extension FeedbackController {
    init(_ services: Services) {
        self.init(helpdeskReader: services.helpdeskReader,
                  renderer: services.renderer)
    }
}

extension TokensController {
    init(_ services: Services) {
        self.init(tokens: APITokenStore(database: services.database, now: services.config.now),
                  cookies: services.cookies,
                  now: services.config.now,
                  renderer: services.renderer)
    }
}

extension LogSelectionController {
    init(_ services: Services) {
        self.init(logReader: services.logReader,
                  now: services.config.now,
                  cookies: services.cookies,
                  logRemoval: services.logRemoval,
                  renderer: services.renderer)
    }
}

extension LogsController {
    init(_ services: Services) {
        self.init(logReader: services.logReader, catalogReader: services.catalogReader,
                  renderer: services.renderer)
    }
}

extension CrashGroupsController {
    init(_ services: Services) {
        self.init(now: services.config.now,
                  logReader: services.logReader,
                  renderer: services.renderer)
    }
}

extension AccountController {
    init(_ services: Services) {
        self.init(accounts: services.accounts,
                  cookies: services.cookies,
                  renderer: services.renderer)
    }
}

extension UsersController {
    init(_ services: Services) {
        self.init(now: services.config.now,
                  accounts: services.accounts,
                  renderer: services.renderer,
                  cookies: services.cookies)
    }
}

extension SignInController {
    init(_ services: Services) {
        self.init(renderer: services.renderer,
                  signIns: services.signIns,
                  cookies: services.cookies,
                  config: services.config,
                  tour: services.tour)
    }
}

extension HelpController {
    init(_ services: Services) {
        self.init(help: services.help,
                  renderer: services.renderer)
    }
}

extension DashboardController {
    init(_ services: Services) {
        self.init(now: services.config.now,
                  database: services.database,
                  logs: services.logs,
                  profileContents: services.profileContents,
                  renderer: services.renderer)
    }
}

extension SimulatorController {
    init(_ services: Services) {
        self.init(simulator: services.simulator,
                  simulatorReader: services.simulatorReader,
                  tour: services.tour,
                  now: services.config.now,
                  renderer: services.renderer,
                  cookies: services.cookies,
                  catalogReader: services.catalogReader,
                  catalog: services.catalog,
                  liveChanges: services.liveChanges)
    }
}

extension AuditLogController {
    init(_ services: Services) {
        self.init(auditLog: services.auditLog,
                  now: services.config.now,
                  renderer: services.renderer)
    }
}

extension PayloadFormsController {
    init(_ services: Services) {
        self.init(appConfigSpecs: services.appConfigSpecs,
                  profiles: services.profiles,
                  images: services.images,
                  catalogReader: services.catalogReader,
                  help: services.help,
                  renderer: services.renderer,
                  saving: ProfileSaving(services))
    }
}

extension ProfileExportController {
    init(_ services: Services) {
        self.init(profiles: services.profiles,
                  signing: services.signing)
    }
}

extension SigningIdentityController {
    init(_ services: Services) {
        self.init(signing: services.signing,
                  cookies: services.cookies,
                  now: services.config.now,
                  renderer: services.renderer)
    }
}

extension ProfileHistoryController {
    init(_ services: Services) {
        self.init(now: services.config.now,
                  profiles: services.profiles,
                  renderer: services.renderer,
                  assignments: services.assignments,
                  cookies: services.cookies,
                  profilePage: ProfilesController(services),
                  saving: ProfileSaving(services))
    }
}

extension ProfileSaving {
    init(_ services: Services) {
        self.init(profileStore: services.profileStore,
                  profiles: services.profiles,
                  cookies: services.cookies,
                  renderer: services.renderer)
    }
}

extension ProfilesController {
    init(_ services: Services) {
        self.init(profileStore: services.profileStore,
                  cookies: services.cookies,
                  now: services.config.now,
                  profiles: services.profiles,
                  renderer: services.renderer,
                  profileImporter: services.profileImporter,
                  saving: ProfileSaving(services))
    }
}

extension AssignmentPreviewController {
    init(_ services: Services) {
        self.init(profiles: services.profiles,
                  cookies: services.cookies,
                  renderer: services.renderer,
                  profilePage: ProfilesController(services))
    }
}

extension ImagesController {
    init(_ services: Services) {
        self.init(images: services.images)
    }
}

extension CatalogAPIController {
    init(_ services: Services) {
        self.init(catalogReader: services.catalogReader,
                  catalog: services.catalog,
                  now: services.config.now)
    }
}

extension ProfilesAPIController {
    init(_ services: Services) {
        self.init(profileStore: services.profileStore,
                  profiles: services.profiles,
                  assignments: services.assignments,
                  signing: services.signing)
    }
}

extension ImportAPIController {
    init(_ services: Services) {
        self.init(profileImporter: services.profileImporter,
                  appConfigSpecs: services.appConfigSpecs)
    }
}

extension LogsAPIController {
    init(_ services: Services) {
        self.init(logReader: services.logReader,
                  now: services.config.now,
                  logRemoval: services.logRemoval)
    }
}

extension DeviceAPIController {
    init(_ services: Services) {
        self.init(beacons: services.beacons,
                  commands: services.commands,
                  logDecoding: services.logDecoding,
                  checkIns: services.checkIns,
                  database: services.database,
                  logStore: services.logStore)
    }
}

extension HelpdeskAPIController {
    init(_ services: Services) {
        self.init(catalog: services.catalog,
                  helpdeskReader: services.helpdeskReader,
                  commands: services.commands,
                  notes: services.notes)
    }
}

extension SimulatorAPIController {
    init(_ services: Services) {
        self.init(simulatorReader: services.simulatorReader,
                  simulator: services.simulator,
                  liveChanges: services.liveChanges)
    }
}

extension DeviceLiveController {
    init(_ services: Services) {
        self.init(catalogReader: services.catalogReader,
                  helpdeskReader: services.helpdeskReader,
                  checkIns: services.checkIns,
                  database: services.database,
                  liveChanges: services.liveChanges,
                  now: services.config.now)
    }
}
