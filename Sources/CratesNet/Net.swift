import CCurl
import CCrypto
