/// The command queue's pages, built from the services start-up made and registered in one
/// line: a feature builds its own controllers rather than adding to `ControllerWiring`.
enum CommandsFeature {
    static func register(on groups: RouteGroups, services: Services) {
        CommandsController(commands: services.commands, cookies: services.cookies,
                           devicePage: DevicesController(services), simulatorPage: SimulatorController(services))
            .register(on: groups.pages)
    }
}
