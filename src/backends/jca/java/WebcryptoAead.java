/*
 * WebcryptoAead - the Java half of the jca backend's AES-GCM encryption of a
 * message that fits the thread's input array (jca_cipher.c, seal_helper):
 * the same JCA calls the backend would make one by one from C (a
 * GCMParameterSpec, Cipher.init, updateAAD, update, doFinal), made here in
 * one call from C. Each call from C into Java costs a few tenths of a
 * microsecond, which at 1 KiB is as much as SunJCE's encryption itself
 * (docs/JCA.md, "The boundary's cost"). Compiled at build time and defined
 * through JNI DefineClass, like WebcryptoSeedRandom; where that is refused
 * (Android), the backend makes the calls from C.
 */
import java.security.GeneralSecurityException;
import java.security.Key;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;

public final class WebcryptoAead {
    private WebcryptoAead() {}

    /*
     * buf holds the plaintext in [0, len), the IV in [len, len + ivLen) and
     * the additional data in [len + ivLen, len + ivLen + aadLen). The
     * plaintext is encrypted in place (Cipher's methods are copy-safe):
     * update() writes its ciphertext over it, and what the engine kept back
     * of it is cleared here; doFinal() writes the rest of the ciphertext and
     * the tag to out. Returns update()'s count in the high 32 bits and
     * doFinal()'s in the low 32.
     */
    public static long seal(Cipher c, Key k, int tagBits, byte[] buf, int len, int ivLen,
                            int aadLen, byte[] out) throws GeneralSecurityException {
        c.init(Cipher.ENCRYPT_MODE, k, new GCMParameterSpec(tagBits, buf, len, ivLen));
        if (aadLen > 0) c.updateAAD(buf, len + ivLen, aadLen);
        int got = len > 0 ? c.update(buf, 0, len, buf, 0) : 0;
        if (got < len) Arrays.fill(buf, Math.max(got, 0), len, (byte) 0);
        int fin = c.doFinal(buf, 0, 0, out, 0);
        return ((long) got << 32) | (fin & 0xffffffffL);
    }
}
