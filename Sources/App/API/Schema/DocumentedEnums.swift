import Domain

// The domain's string enums the API sends and takes, documented as the list of their raw
// values (the domain does not know about the API document).
extension AppDeliveryMethod: DocumentedEnum {}
extension AppRole: DocumentedEnum {}
extension ComplianceState: DocumentedEnum {}
extension DeviceModel: DocumentedEnum {}
extension LogLevel: DocumentedEnum {}
