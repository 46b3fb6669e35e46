# Secret lifetime, measured (docs/ROBUSTNESS.md, "Secret lifetime"): after
# keys and results are freed, the process's memory holds no copy of their
# secrets; while they are alive, no copy a backend does not need.
webcrypto_backend_test(test_residue test_residue.c)
target_link_libraries(test_residue PRIVATE PkgConfig::JANSSON)
