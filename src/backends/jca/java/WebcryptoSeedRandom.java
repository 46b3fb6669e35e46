/*
 * WebcryptoSeedRandom - a SecureRandom that returns exactly the bytes it was
 * given, then refuses. The jca backend hands it to a JDK (24 or later)
 * ML-KEM or ML-DSA KeyPairGenerator, whose FIPS 203/204 KeyGen draws its
 * seed (d, then z; or xi) from the SecureRandom: so the pair it makes is
 * KeyGen_internal of the seed, which is how a seed-form key (raw-seed,
 * PKCS #8 seed, JWK "priv") is imported. The JDK has no other way to make a
 * key from a seed. It also gives an Ed448 private key its public key: a
 * KeyPairGenerator "Ed448" (SunEC, BouncyCastle) draws the 57 private-key
 * bytes from it and computes their public key (jca_okp.c). Compiled at
 * build time and defined through JNI DefineClass (jca_pq.c); never on a
 * class path.
 */
public final class WebcryptoSeedRandom extends java.security.SecureRandom {
    private static final long serialVersionUID = 1L;
    private final byte[] seed;
    private int used;

    public WebcryptoSeedRandom(byte[] seed) {
        super();
        this.seed = seed;
    }

    @Override
    public void nextBytes(byte[] out) {
        /* A draw beyond the seed would make a key from other bytes. */
        if (out.length > seed.length - used)
            throw new IllegalStateException("WebcryptoSeedRandom: the seed is used up");
        System.arraycopy(seed, used, out, 0, out.length);
        used += out.length;
    }

    /* How many bytes were drawn: the backend checks it is the whole seed. */
    public int used() {
        return used;
    }

    public void wipe() {
        java.util.Arrays.fill(seed, (byte) 0);
    }
}
