import Foundation

/// The SDK profile an SDK-built app downloads after start-up: the SDK payloads (and the
/// managed app configuration) under the key names the SDK reads.
public enum SDKProfile {
    public static func propertyList(for input: ProfileExportInput) -> PropertyList {
        .dictionary([
            ("ProfileIdentifier", .string(input.identifier)),
            ("ProfileUUID", .string(input.uuid)),
            ("DisplayName", .string(input.displayName)),
        ] + input.payloads.compactMap { entry(for: $0.payload) })
    }

    public static func json(for input: ProfileExportInput) -> Data {
        propertyList(for: input).jsonData()
    }

    /// One SDK payload as a named dictionary; nil for Apple payloads.
    static func entry(for payload: Payload) -> (String, PropertyList)? {
        switch payload {
        case .dlp(let dlp):
            return ("DataLossPrevention", .dictionary(DataLossPrevention.fields.map { ($0.sdkKey, .boolean(dlp[keyPath: $0.keyPath])) }))
        case .geofence(let fence):
            return ("Geofence", .dictionary([("Areas", .array(fence.areas.map { area in
                .dictionary([("Name", .string(area.name)), ("Latitude", .real(area.latitude)),
                             ("Longitude", .real(area.longitude)), ("Radius", .real(area.radiusMeters))])
            }))]))
        case .logging(let logging):
            return ("Logging", .dictionary([("Enabled", .boolean(logging.enabled)), ("Level", .string(logging.level.displayName)),
                                            ("WiFiOnly", .boolean(logging.wifiOnly))]))
        case .branding(let branding):
            let color = branding.primaryColor
            var entries: [(String, PropertyList)] = [
                ("EnableBranding", .boolean(branding.enabled)),
                ("Colors", .dictionary([("PrimaryHighlight", .dictionary([
                    ("Red", .integer(color.red)), ("Green", .integer(color.green)),
                    ("Blue", .integer(color.blue)), ("Alpha", .integer(color.alpha)),
                ]))])),
            ]
            let logos = [("AppLogo_1x", branding.appLogo1x), ("AppLogo_2x", branding.appLogo2x),
                         ("SplashLogo_1x", branding.splashLogo1x), ("SplashLogo_2x", branding.splashLogo2x)]
            for (key, image) in logos { if let image { entries.append((key, .string(image.id))) } }
            return ("Branding", .dictionary(entries))
        case .authentication(let auth):
            return ("Authentication", .dictionary([
                ("AuthenticationType", .string(auth.type.sdkValue)), ("SingleSignOn", .boolean(auth.singleSignOn)),
                ("OfflineAccess", .dictionary([("Enabled", .boolean(auth.offlineAccessEnabled)),
                                               ("MaximumOfflineMinutes", .integer(auth.maximumOfflineMinutes))])),
            ]))
        case .managedAppConfig(let config):
            return ("ManagedAppConfiguration", .dictionary([("Identifier", .string(config.appIdentifier)),
                                                            ("Configuration", config.dictionary)]))
        case .customSettings(let settings):
            return ("CustomSettings", .dictionary([("Settings", .string(settings.text))]))
        case .compliance(let compliance):
            return ("Compliance", .dictionary([("Rules", .array(compliance.rules.map { rule in
                .dictionary((rule.appIdentifier.map { [("ApplicationIdentifier", PropertyList.string($0))] } ?? []) + [
                    ("Subject", .string(rule.appIdentifier == nil ? "OSVersion" : "ApplicationVersion")),
                    ("Operator", .string(rule.comparison.sdkValue)), ("Version", .string(rule.version)),
                    ("Action", .string(rule.action.sdkValue)),
                ])
            }))]))
        case .compromisedProtection(let protection):
            return ("CompromisedProtection", .dictionary([("Enabled", .boolean(protection.enabled)), ("Action", .string(protection.action.sdkValue))]))
        case .certificatePinning(let pinning):
            return ("CertificatePinning", .dictionary([
                ("Enabled", .boolean(pinning.enabled)), ("Hosts", .array(pinning.hosts.map(PropertyList.string))),
                ("Certificates", .array(pinning.certificates.map { certificate in
                    .dictionary([("Subject", .string(certificate.subject)), ("PublicKeySHA256", .string(certificate.publicKeySHA256)),
                                 ("NotAfter", .date(certificate.notAfter)),
                                 ("Data", .data(Array(certificate.der)))])
                })),
            ]))
        case .appTunnel(let tunnel):
            return ("AppTunnel", .dictionary([("Mode", .string(tunnel.mode == .everything ? "TunnelAll" : "Split")),
                                              ("AppTunnelURLs", .array(tunnel.directAddresses.map(PropertyList.string)))]))
        case .integratedAuthentication(let integrated):
            return ("IntegratedAuthentication", .dictionary([("Enabled", .boolean(integrated.enabled)),
                                                             ("AllowedSites", .array(integrated.allowedSites.map(PropertyList.string))),
                                                             ("AuthenticationOption", .string(integrated.credential.sdkValue))]))
        case .analytics(let analytics):
            return ("Analytics", .dictionary([("Enabled", .boolean(analytics.enabled))]))
        case .singleAppMode, .asamAllowlist:
            return nil
        }
    }
}
