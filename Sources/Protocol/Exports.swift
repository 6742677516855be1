// Everything that speaks the protocol speaks JSON: importing Protocol brings Common's values and coder.
@_exported import Common
