enum TestKeys {
  /// A P-256 key: valid PEM, wrong type for RSA. Generated for these tests only.
  static let ecPrivateKey = """
    -----BEGIN PRIVATE KEY-----
    MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgic/1Uc3ifYGl5JLX
    XPwKt2klWrlDtnMQjtxHsevolK2hRANCAASlr14pk83SF3d8vHT44Zoa4TtHfg46
    tGM0NALZ0fzV+lFu0JxVFPymsoyDmWyHVVRVQ/EKwGplrz6/qdIubxjc
    -----END PRIVATE KEY-----
    """

  /// An RSA key encrypted with a passphrase. Generated for these tests only.
  static let encryptedPrivateKey = """
    -----BEGIN ENCRYPTED PRIVATE KEY-----
    MIIC3TBXBgkqhkiG9w0BBQ0wSjApBgkqhkiG9w0BBQwwHAQIuWpdjuRxPCYCAggA
    MAwGCCqGSIb3DQIJBQAwHQYJYIZIAWUDBAECBBDNW54JauFVTZWAhHiW5TQxBIIC
    gEKtrk4TZC7DFY2SuZjwRNnGkXglUCqVgm6Vngkgt01rcbAlvO1XvgWnLOQT6QmY
    F8XxTkqKWczkEbxbE2cQh5CTR7BAU4l4hQnGjUxzEI97Hac0DZE4yhK7qLcHaM4T
    8RTbPKJHLYD+JkKYAyy1XEB1PqdxNKPc9RxGbgZSDTi1HeD8Z0Vvdgi9uCk4ddk2
    I2WwnddKBFrNZBaJySptAL61NQ8WIeXfkTzmDQDAmFusR9rx+TS3SdBAAVn774Pm
    Y6FeCKBRWD/XeJ1FBm3sh6mEOg0PCVhirtlkJbVUV/20XX+RsmrloIbHkJAAZhc1
    wxvFaCeUHkrnLyq7KS06oPdLRlvogG0x6tvGJ4jCOLHf0yzGibM5Pn2j/a/bbdPf
    xC7SYThnX8yXfTCWC5ooV45EhamfYYQsbCqHE8PXhNYEBOfs8WXVpRpQGSlazcp3
    bs3Rxz2RzxDe5+ykvWbyrkUyoGjuMetJeyOMa6M8AZcNBf6C8aXZ4bn5OU0A8FB5
    5x3NtvXApkkMXcR9R/IVeabvbWObmPBhCK9muS8w7RM/ZJk+qQUouD90OVinX13M
    09QswxoQOPXPyS5XusF3RsIyVHJKvD3QVO4OziGGdn1B7FwGJmPn8DNT2QlLxQig
    SgwDWWAcKmuTBf6Bi8VQpa53MBg9mnDYY0cr3sW8MuwHizBT6zXR9sWdiSWpUrYy
    jrN1toalkKy1zbWy6Kehud8Mx7fRGZPoKMLkCqkfDN5jsN1G9ZUmxFzU88p3iBb6
    OwDFAhbTown3jXZDdETzieQky42BDu7ChuoCcTJ7xAvC5SPo3qsPC1upTQI0YQ/3
    lhmuSKAX4tkEm4CUrmcd/hY=
    -----END ENCRYPTED PRIVATE KEY-----
    """
}
